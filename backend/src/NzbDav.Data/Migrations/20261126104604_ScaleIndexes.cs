using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class ScaleIndexes : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_DavItems_ParentId",
                table: "DavItems");

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
                name: "IX_Jobs_Status_RemovedFromHistory",
                table: "Jobs",
                columns: new[] { "Status", "RemovedFromHistory" });

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems",
                columns: new[] { "Path", "Name", "Id", "JobId", "IsDirectory", "Size", "ParentId" },
                filter: "\"ParentId\" IS NULL");

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_ParentId",
                table: "DavItems",
                column: "ParentId",
                filter: "\"ParentId\" IS NOT NULL");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_Jobs_CategoryHistoryOrder",
                table: "Jobs");

            migrationBuilder.DropIndex(
                name: "IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes",
                table: "Jobs");

            migrationBuilder.DropIndex(
                name: "IX_Jobs_HistoryOrder",
                table: "Jobs");

            migrationBuilder.DropIndex(
                name: "IX_Jobs_Status_RemovedFromHistory",
                table: "Jobs");

            migrationBuilder.DropIndex(
                name: "IX_DavItems_JobFolders",
                table: "DavItems");

            migrationBuilder.DropIndex(
                name: "IX_DavItems_ParentId",
                table: "DavItems");

            migrationBuilder.CreateIndex(
                name: "IX_DavItems_ParentId",
                table: "DavItems",
                column: "ParentId");
        }
    }
}
