using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Design;

namespace NzbDav.Data.Postgres;

/// <summary>
/// Lets <c>dotnet ef migrations add</c> build the PostgreSQL model without a server: the tool only
/// reads the model, and the connection string is a placeholder it never opens.
/// </summary>
internal sealed class DesignTimeDbContextFactory : IDesignTimeDbContextFactory<NzbDavDbContext>
{
    public NzbDavDbContext CreateDbContext(string[] args) =>
        new(new DbContextOptionsBuilder<NzbDavDbContext>()
            .UseNpgsql("Host=design-time;Database=nzbdav", npgsql => npgsql.MigrationsAssembly(DataServiceCollectionExtensions.PostgresMigrationsAssembly))
            .Options);
}
