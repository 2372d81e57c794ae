using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class ProviderLeases : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<long>(
                name: "CacheBytes",
                table: "Nodes",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<long>(
                name: "CacheCapacity",
                table: "Nodes",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<int>(
                name: "Streams",
                table: "Nodes",
                type: "INTEGER",
                nullable: false,
                defaultValue: 0);

            migrationBuilder.CreateTable(
                name: "ProviderLeases",
                columns: table => new
                {
                    NodeId = table.Column<Guid>(type: "TEXT", nullable: false),
                    Provider = table.Column<string>(type: "TEXT", nullable: false),
                    Granted = table.Column<int>(type: "INTEGER", nullable: false),
                    StreamingDemand = table.Column<int>(type: "INTEGER", nullable: false),
                    QueueDemand = table.Column<int>(type: "INTEGER", nullable: false),
                    HealthDemand = table.Column<int>(type: "INTEGER", nullable: false),
                    Open = table.Column<int>(type: "INTEGER", nullable: false),
                    UpdatedAt = table.Column<DateTime>(type: "TEXT", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_ProviderLeases", x => new { x.NodeId, x.Provider });
                    table.ForeignKey(
                        name: "FK_ProviderLeases_Nodes_NodeId",
                        column: x => x.NodeId,
                        principalTable: "Nodes",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "ProviderLeases");

            migrationBuilder.DropColumn(
                name: "CacheBytes",
                table: "Nodes");

            migrationBuilder.DropColumn(
                name: "CacheCapacity",
                table: "Nodes");

            migrationBuilder.DropColumn(
                name: "Streams",
                table: "Nodes");
        }
    }
}
