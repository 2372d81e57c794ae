using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Postgres.Migrations
{
    /// <inheritdoc />
    public partial class ItemTimes : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes",
                table: "Jobs");

            migrationBuilder.DropIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems");

            migrationBuilder.AddColumn<DateTime>(
                name: "Modified",
                table: "DavItems",
                type: "timestamp with time zone",
                nullable: false,
                defaultValue: new DateTime(1, 1, 1, 0, 0, 0, 0, DateTimeKind.Unspecified));

            // Every item takes its job's time, which WebDAV gave it until now; before the indexes are built.
            migrationBuilder.Sql("""
                UPDATE "DavItems" AS d SET "Modified" = COALESCE(j."CompletedAt", j."AddedAt") FROM "Jobs" AS j WHERE j."Id" = d."JobId";
                """);

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes_Id",
                table: "Jobs",
                columns: new[] { "Category", "Status", "RemovedFromHistory", "TotalBytes", "Id" });

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems",
                columns: new[] { "Path", "Name", "Id", "JobId", "IsDirectory", "Size", "ParentId", "Modified" },
                filter: "\"ParentId\" IS NULL");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes_Id",
                table: "Jobs");

            migrationBuilder.DropIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems");

            migrationBuilder.DropColumn(
                name: "Modified",
                table: "DavItems");

            migrationBuilder.CreateIndex(
                name: "IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes",
                table: "Jobs",
                columns: new[] { "Category", "Status", "RemovedFromHistory", "TotalBytes" });

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems",
                columns: new[] { "Path", "Name", "Id", "JobId", "IsDirectory", "Size", "ParentId" },
                filter: "\"ParentId\" IS NULL");
        }
    }
}
