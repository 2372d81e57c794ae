using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class ArrRepairedItems : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "ArrRepairedItems",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    Instance = table.Column<string>(type: "TEXT", nullable: false),
                    ItemId = table.Column<int>(type: "INTEGER", nullable: false),
                    RepairedAt = table.Column<DateTime>(type: "TEXT", nullable: false),
                    JobName = table.Column<string>(type: "TEXT", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_ArrRepairedItems", x => x.Id);
                });

            migrationBuilder.CreateIndex(
                name: "IX_ArrRepairedItems_Instance_ItemId_RepairedAt",
                table: "ArrRepairedItems",
                columns: new[] { "Instance", "ItemId", "RepairedAt" });
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "ArrRepairedItems");
        }
    }
}
