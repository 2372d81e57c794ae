using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class HistoryEntryRemoval : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<bool>(
                name: "RemovedFromHistory",
                table: "Jobs",
                type: "INTEGER",
                nullable: false,
                defaultValue: false);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "RemovedFromHistory",
                table: "Jobs");
        }
    }
}
