using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Postgres.Migrations
{
    /// <inheritdoc />
    public partial class SegmentPatchData : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<byte[]>(
                name: "Data",
                table: "SegmentPatches",
                type: "bytea",
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "Data",
                table: "SegmentPatches");
        }
    }
}
