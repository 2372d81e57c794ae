using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class HealthChecks : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "FileHealth",
                columns: table => new
                {
                    DavItemId = table.Column<Guid>(type: "TEXT", nullable: false),
                    JobId = table.Column<Guid>(type: "TEXT", nullable: false),
                    State = table.Column<int>(type: "INTEGER", nullable: false),
                    Repair = table.Column<int>(type: "INTEGER", nullable: false),
                    ReleasedAt = table.Column<DateTime>(type: "TEXT", nullable: false),
                    LastCheckedAt = table.Column<DateTime>(type: "TEXT", nullable: true),
                    NextCheckAt = table.Column<DateTime>(type: "TEXT", nullable: false),
                    Urgent = table.Column<bool>(type: "INTEGER", nullable: false),
                    FullCheckNext = table.Column<bool>(type: "INTEGER", nullable: false),
                    SegmentCount = table.Column<int>(type: "INTEGER", nullable: false),
                    CheckedSegments = table.Column<int>(type: "INTEGER", nullable: false),
                    UnknownSegments = table.Column<int>(type: "INTEGER", nullable: false),
                    MissingIds = table.Column<string>(type: "TEXT", nullable: true),
                    MissingCount = table.Column<int>(type: "INTEGER", nullable: false),
                    SuspectIds = table.Column<string>(type: "TEXT", nullable: true),
                    SuspectSince = table.Column<DateTime>(type: "TEXT", nullable: true),
                    Detail = table.Column<string>(type: "TEXT", nullable: true),
                    LastRepairAt = table.Column<DateTime>(type: "TEXT", nullable: true),
                    RepairAttempts = table.Column<int>(type: "INTEGER", nullable: false),
                    RepairMessage = table.Column<string>(type: "TEXT", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_FileHealth", x => x.DavItemId);
                    table.ForeignKey(
                        name: "FK_FileHealth_DavItems_DavItemId",
                        column: x => x.DavItemId,
                        principalTable: "DavItems",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "HealthAudit",
                columns: table => new
                {
                    Id = table.Column<long>(type: "INTEGER", nullable: false)
                        .Annotation("Sqlite:Autoincrement", true),
                    At = table.Column<DateTime>(type: "TEXT", nullable: false),
                    DavItemId = table.Column<Guid>(type: "TEXT", nullable: true),
                    JobId = table.Column<Guid>(type: "TEXT", nullable: true),
                    Path = table.Column<string>(type: "TEXT", nullable: false),
                    Action = table.Column<string>(type: "TEXT", nullable: false),
                    Detail = table.Column<string>(type: "TEXT", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_HealthAudit", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "KnownMissingArticles",
                columns: table => new
                {
                    MessageId = table.Column<string>(type: "TEXT", nullable: false),
                    FoundAt = table.Column<DateTime>(type: "TEXT", nullable: false),
                    JobName = table.Column<string>(type: "TEXT", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_KnownMissingArticles", x => x.MessageId);
                });

            migrationBuilder.CreateIndex(
                name: "IX_FileHealth_JobId",
                table: "FileHealth",
                column: "JobId");

            migrationBuilder.CreateIndex(
                name: "IX_FileHealth_NextCheckAt",
                table: "FileHealth",
                column: "NextCheckAt");

            migrationBuilder.CreateIndex(
                name: "IX_FileHealth_State",
                table: "FileHealth",
                column: "State");

            migrationBuilder.CreateIndex(
                name: "IX_HealthAudit_At",
                table: "HealthAudit",
                column: "At");

            migrationBuilder.CreateIndex(
                name: "IX_HealthAudit_DavItemId",
                table: "HealthAudit",
                column: "DavItemId");

            migrationBuilder.CreateIndex(
                name: "IX_KnownMissingArticles_FoundAt",
                table: "KnownMissingArticles",
                column: "FoundAt");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "FileHealth");

            migrationBuilder.DropTable(
                name: "HealthAudit");

            migrationBuilder.DropTable(
                name: "KnownMissingArticles");
        }
    }
}
