using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace NzbDav.Data;

/// <summary>
/// Lets <c>dotnet ef migrations add</c> build the context without starting the server. The tool only
/// reads the model here; the database path is a placeholder it never opens.
/// </summary>
internal sealed class DesignTimeDbContextFactory : IDesignTimeDbContextFactory<NzbDavDbContext>
{
    public NzbDavDbContext CreateDbContext(string[] args) =>
        new(new DbContextOptionsBuilder<NzbDavDbContext>()
            .UseSqlite("Data Source=design-time.db", sqlite => sqlite.MigrationsAssembly(DataAssembly.Name))
            .Options);
}
