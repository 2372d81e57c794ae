using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class TrafficLedger : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "TrafficFileDays",
                columns: table => new
                {
                    DayStart = table.Column<DateTime>(type: "TEXT", nullable: false),
                    Path = table.Column<string>(type: "TEXT", nullable: false),
                    FetchedBytes = table.Column<long>(type: "INTEGER", nullable: false),
                    ServedBytes = table.Column<long>(type: "INTEGER", nullable: false),
                    Reads = table.Column<int>(type: "INTEGER", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_TrafficFileDays", x => new { x.DayStart, x.Path });
                });

            migrationBuilder.CreateTable(
                name: "TrafficHours",
                columns: table => new
                {
                    HourStart = table.Column<DateTime>(type: "TEXT", nullable: false),
                    Consumer = table.Column<string>(type: "TEXT", nullable: false),
                    Provider = table.Column<string>(type: "TEXT", nullable: false),
                    ReceivedBytes = table.Column<long>(type: "INTEGER", nullable: false),
                    ServedBytes = table.Column<long>(type: "INTEGER", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_TrafficHours", x => new { x.HourStart, x.Consumer, x.Provider });
                });
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "TrafficFileDays");

            migrationBuilder.DropTable(
                name: "TrafficHours");
        }
    }
}
