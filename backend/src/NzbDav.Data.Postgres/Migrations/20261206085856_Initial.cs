using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

namespace NzbDav.Data.Postgres.Migrations
{
    /// <inheritdoc />
    public partial class Initial : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "ArrRepairedItems",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    Instance = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    ItemId = table.Column<int>(type: "integer", nullable: false),
                    RepairedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    JobName = table.Column<string>(type: "text", nullable: false, collation: "C")
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_ArrRepairedItems", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "ConfigItems",
                columns: table => new
                {
                    Key = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Value = table.Column<string>(type: "text", nullable: false, collation: "C")
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_ConfigItems", x => x.Key);
                });

            migrationBuilder.CreateTable(
                name: "HealthAudit",
                columns: table => new
                {
                    Id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    At = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    DavItemId = table.Column<Guid>(type: "uuid", nullable: true),
                    JobId = table.Column<Guid>(type: "uuid", nullable: true),
                    Path = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Action = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Detail = table.Column<string>(type: "text", nullable: false, collation: "C")
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_HealthAudit", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "Jobs",
                columns: table => new
                {
                    Id = table.Column<Guid>(type: "uuid", nullable: false),
                    NzoId = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Name = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Category = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Priority = table.Column<int>(type: "integer", nullable: false),
                    Status = table.Column<int>(type: "integer", nullable: false),
                    FailMessage = table.Column<string>(type: "text", nullable: true, collation: "C"),
                    AddedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    CompletedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: true),
                    TotalBytes = table.Column<long>(type: "bigint", nullable: false),
                    StoragePath = table.Column<string>(type: "text", nullable: true, collation: "C"),
                    Password = table.Column<string>(type: "text", nullable: true, collation: "C"),
                    RemovedFromHistory = table.Column<bool>(type: "boolean", nullable: false),
                    NzbHash = table.Column<string>(type: "text", nullable: false, collation: "C")
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_Jobs", x => x.Id);
                });

            migrationBuilder.CreateTable(
                name: "KnownMissingArticles",
                columns: table => new
                {
                    MessageId = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    FoundAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    JobName = table.Column<string>(type: "text", nullable: false, collation: "C")
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_KnownMissingArticles", x => x.MessageId);
                });

            migrationBuilder.CreateTable(
                name: "TrafficFileDays",
                columns: table => new
                {
                    DayStart = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    Path = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    FetchedBytes = table.Column<long>(type: "bigint", nullable: false),
                    ServedBytes = table.Column<long>(type: "bigint", nullable: false),
                    Reads = table.Column<int>(type: "integer", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_TrafficFileDays", x => new { x.DayStart, x.Path });
                });

            migrationBuilder.CreateTable(
                name: "TrafficHours",
                columns: table => new
                {
                    HourStart = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    Consumer = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Provider = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    ReceivedBytes = table.Column<long>(type: "bigint", nullable: false),
                    ServedBytes = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_TrafficHours", x => new { x.HourStart, x.Consumer, x.Provider });
                });

            migrationBuilder.CreateTable(
                name: "DavItems",
                columns: table => new
                {
                    Id = table.Column<Guid>(type: "uuid", nullable: false),
                    JobId = table.Column<Guid>(type: "uuid", nullable: false),
                    ParentId = table.Column<Guid>(type: "uuid", nullable: true),
                    Name = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Path = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    IsDirectory = table.Column<bool>(type: "boolean", nullable: false),
                    Size = table.Column<long>(type: "bigint", nullable: false),
                    Layout = table.Column<byte[]>(type: "bytea", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_DavItems", x => x.Id);
                    table.ForeignKey(
                        name: "FK_DavItems_Jobs_JobId",
                        column: x => x.JobId,
                        principalTable: "Jobs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "JobNzbs",
                columns: table => new
                {
                    JobId = table.Column<Guid>(type: "uuid", nullable: false),
                    GzipData = table.Column<byte[]>(type: "bytea", nullable: false),
                    Length = table.Column<long>(type: "bigint", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_JobNzbs", x => x.JobId);
                    table.ForeignKey(
                        name: "FK_JobNzbs_Jobs_JobId",
                        column: x => x.JobId,
                        principalTable: "Jobs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "SegmentPatches",
                columns: table => new
                {
                    JobId = table.Column<Guid>(type: "uuid", nullable: false),
                    MessageId = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    File = table.Column<string>(type: "text", nullable: false, collation: "C"),
                    Offset = table.Column<long>(type: "bigint", nullable: false),
                    Length = table.Column<int>(type: "integer", nullable: false),
                    Crc32 = table.Column<long>(type: "bigint", nullable: false),
                    CreatedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("PK_SegmentPatches", x => new { x.JobId, x.MessageId });
                    table.ForeignKey(
                        name: "FK_SegmentPatches_Jobs_JobId",
                        column: x => x.JobId,
                        principalTable: "Jobs",
                        principalColumn: "Id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "FileHealth",
                columns: table => new
                {
                    DavItemId = table.Column<Guid>(type: "uuid", nullable: false),
                    JobId = table.Column<Guid>(type: "uuid", nullable: false),
                    State = table.Column<int>(type: "integer", nullable: false),
                    Repair = table.Column<int>(type: "integer", nullable: false),
                    ReleasedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    LastCheckedAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: true),
                    NextCheckAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: false),
                    Urgent = table.Column<bool>(type: "boolean", nullable: false),
                    FullCheckNext = table.Column<bool>(type: "boolean", nullable: false),
                    SegmentCount = table.Column<int>(type: "integer", nullable: false),
                    CheckedSegments = table.Column<int>(type: "integer", nullable: false),
                    UnknownSegments = table.Column<int>(type: "integer", nullable: false),
                    MissingIds = table.Column<string>(type: "text", nullable: true, collation: "C"),
                    MissingCount = table.Column<int>(type: "integer", nullable: false),
                    SuspectIds = table.Column<string>(type: "text", nullable: true, collation: "C"),
                    SuspectSince = table.Column<DateTime>(type: "timestamp with time zone", nullable: true),
                    Detail = table.Column<string>(type: "text", nullable: true, collation: "C"),
                    LastRepairAt = table.Column<DateTime>(type: "timestamp with time zone", nullable: true),
                    RepairAttempts = table.Column<int>(type: "integer", nullable: false),
                    RepairMessage = table.Column<string>(type: "text", nullable: true, collation: "C")
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

            migrationBuilder.CreateIndex(
                name: "IX_ArrRepairedItems_Instance_ItemId_RepairedAt",
                table: "ArrRepairedItems",
                columns: new[] { "Instance", "ItemId", "RepairedAt" });

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems",
                columns: new[] { "Path", "Name", "Id", "JobId", "IsDirectory", "Size", "ParentId" },
                filter: "\"ParentId\" IS NULL");

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_JobId",
                table: "DavItems",
                column: "JobId");

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_ParentId",
                table: "DavItems",
                column: "ParentId",
                filter: "\"ParentId\" IS NOT NULL");

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_Path",
                table: "DavItems",
                column: "Path",
                unique: true);

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
                name: "IX_Jobs_CategoryHistoryOrder",
                table: "Jobs",
                columns: new[] { "Category", "CompletedAt" });

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes",
                table: "Jobs",
                columns: new[] { "Category", "Status", "RemovedFromHistory", "TotalBytes" });

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_HistoryOrder",
                table: "Jobs",
                columns: new[] { "CompletedAt", "AddedAt" });

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_NzbHash",
                table: "Jobs",
                column: "NzbHash");

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_NzoId",
                table: "Jobs",
                column: "NzoId",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_Status_AddedAt",
                table: "Jobs",
                columns: new[] { "Status", "AddedAt" });

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_Status_RemovedFromHistory",
                table: "Jobs",
                columns: new[] { "Status", "RemovedFromHistory" });

            migrationBuilder.CreateIndex(
                name: "IX_KnownMissingArticles_FoundAt",
                table: "KnownMissingArticles",
                column: "FoundAt");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "ArrRepairedItems");

            migrationBuilder.DropTable(
                name: "ConfigItems");

            migrationBuilder.DropTable(
                name: "FileHealth");

            migrationBuilder.DropTable(
                name: "HealthAudit");

            migrationBuilder.DropTable(
                name: "JobNzbs");

            migrationBuilder.DropTable(
                name: "KnownMissingArticles");

            migrationBuilder.DropTable(
                name: "SegmentPatches");

            migrationBuilder.DropTable(
                name: "TrafficFileDays");

            migrationBuilder.DropTable(
                name: "TrafficHours");

            migrationBuilder.DropTable(
                name: "DavItems");

            migrationBuilder.DropTable(
                name: "Jobs");
        }
    }
}
