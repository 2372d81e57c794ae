using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Postgres.Migrations
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
                type: "bigint",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<long>(
                name: "CacheCapacity",
                table: "Nodes",
                type: "bigint",
                nullable: false,
                defaultValue: 0L);

            migrationBuilder.AddColumn<int>(
                name: "Streams",
                table: "Nodes",
                type: "integer",
                nullable: false,
                defaultValue: 0);

            migrationBuilder.CreateTable(
                name: "ProviderLeases",
                columns: table => new
                {
                    NodeId = table.Column<Guid>(type: "uuid", nullable: false),
                    Provider = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Granted = table.Column<int>(type: "integer", nullable: false),
                    StreamingDemand = table.Column<int>(type: "integer", nullable: false),
                    QueueDemand = table.Column<int>(type: "integer", nullable: false),
                    HealthDemand = table.Column<int>(type: "integer", nullable: false),
                    Open = table.Column<int>(type: "integer", nullable: false),
                    UpdatedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false)
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
