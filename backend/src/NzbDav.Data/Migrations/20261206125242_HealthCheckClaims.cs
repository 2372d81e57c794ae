using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace NzbDav.Data.Migrations
{
    /// <inheritdoc />
    public partial class HealthCheckClaims : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<Guid>(
                name: "CheckClaimedBy",
                table: "FileHealth",
                type: "TEXT",
                nullable: true);

            migrationBuilder.CreateIndex(
                name: "IX_FileHealth_CheckClaimedBy",
                table: "FileHealth",
                column: "CheckClaimedBy",
                filter: "\"CheckClaimedBy\" IS NOT NULL");
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropIndex(
                name: "IX_FileHealth_CheckClaimedBy",
                table: "FileHealth");

            migrationBuilder.DropColumn(
                name: "CheckClaimedBy",
                table: "FileHealth");
        }
    }
}
