using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;

namespace NzbDav.Data.Migrations;

/// <summary>Jobs, their NZBs, the virtual tree and settings. Written by hand (no design-time tooling).</summary>
[DbContext(typeof(NzbDavDbContext))]
[Migration("20261122000000_Initial")]
public sealed class Initial : Migration
{
    protected override void Up(MigrationBuilder migrationBuilder)
    {
        migrationBuilder.CreateTable(
            name: "ConfigItems",
            columns: table => new
            {
                Key = table.Column<string>(type: "TEXT", nullable: false),
                Value = table.Column<string>(type: "TEXT", nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_ConfigItems", x => x.Key));

        migrationBuilder.CreateTable(
            name: "Jobs",
            columns: table => new
            {
                Id = table.Column<Guid>(type: "TEXT", nullable: false),
                NzoId = table.Column<string>(type: "TEXT", nullable: false),
                Name = table.Column<string>(type: "TEXT", nullable: false),
                Category = table.Column<string>(type: "TEXT", nullable: false),
                Priority = table.Column<int>(type: "INTEGER", nullable: false),
                Status = table.Column<int>(type: "INTEGER", nullable: false),
                FailMessage = table.Column<string>(type: "TEXT", nullable: true),
                AddedAt = table.Column<DateTime>(type: "TEXT", nullable: false),
                CompletedAt = table.Column<DateTime>(type: "TEXT", nullable: true),
                TotalBytes = table.Column<long>(type: "INTEGER", nullable: false),
                StoragePath = table.Column<string>(type: "TEXT", nullable: true),
                Password = table.Column<string>(type: "TEXT", nullable: true),
                NzbHash = table.Column<string>(type: "TEXT", nullable: false),
            },
            constraints: table => table.PrimaryKey("PK_Jobs", x => x.Id));

        migrationBuilder.CreateTable(
            name: "DavItems",
            columns: table => new
            {
                Id = table.Column<Guid>(type: "TEXT", nullable: false),
                JobId = table.Column<Guid>(type: "TEXT", nullable: false),
                ParentId = table.Column<Guid>(type: "TEXT", nullable: true),
                Name = table.Column<string>(type: "TEXT", nullable: false),
                Path = table.Column<string>(type: "TEXT", nullable: false),
                IsDirectory = table.Column<bool>(type: "INTEGER", nullable: false),
                Size = table.Column<long>(type: "INTEGER", nullable: false),
                Layout = table.Column<byte[]>(type: "BLOB", nullable: true),
            },
            constraints: table =>
            {
                table.PrimaryKey("PK_DavItems", x => x.Id);
                table.ForeignKey("FK_DavItems_Jobs_JobId", x => x.JobId, "Jobs", "Id", onDelete: ReferentialAction.Cascade);
            });

        migrationBuilder.CreateTable(
            name: "JobNzbs",
            columns: table => new
            {
                JobId = table.Column<Guid>(type: "TEXT", nullable: false),
                GzipData = table.Column<byte[]>(type: "BLOB", nullable: false),
                Length = table.Column<long>(type: "INTEGER", nullable: false),
            },
            constraints: table =>
            {
                table.PrimaryKey("PK_JobNzbs", x => x.JobId);
                table.ForeignKey("FK_JobNzbs_Jobs_JobId", x => x.JobId, "Jobs", "Id", onDelete: ReferentialAction.Cascade);
            });

        migrationBuilder.CreateIndex("IX_DavItems_JobId", "DavItems", "JobId");
        migrationBuilder.CreateIndex("IX_DavItems_ParentId", "DavItems", "ParentId");
        migrationBuilder.CreateIndex("IX_DavItems_Path", "DavItems", "Path", unique: true);
        migrationBuilder.CreateIndex("IX_Jobs_NzbHash", "Jobs", "NzbHash");
        migrationBuilder.CreateIndex("IX_Jobs_NzoId", "Jobs", "NzoId", unique: true);
        migrationBuilder.CreateIndex("IX_Jobs_Status_AddedAt", "Jobs", ["Status", "AddedAt"]);
    }

    protected override void Down(MigrationBuilder migrationBuilder)
    {
        migrationBuilder.DropTable("ConfigItems");
        migrationBuilder.DropTable("DavItems");
        migrationBuilder.DropTable("JobNzbs");
        migrationBuilder.DropTable("Jobs");
    }
}
