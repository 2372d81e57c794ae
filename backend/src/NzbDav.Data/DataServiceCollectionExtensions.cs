using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace NzbDav.Data;

/// <summary>Registers the SQLite library store.</summary>
public static class DataServiceCollectionExtensions
{
    /// <summary>The database file inside the data directory.</summary>
    public const string DatabaseFileName = "nzbdav.db";

    /// <summary>
    /// Registers <see cref="IDbContextFactory{NzbDavDbContext}"/> on <c>&lt;dataDirectory&gt;/nzbdav.db</c>
    /// (the directory is created). Apply migrations with <see cref="NzbDavDatabase.MigrateAsync"/>.
    /// </summary>
    public static IServiceCollection AddNzbDavData(this IServiceCollection services, string dataDirectory)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentException.ThrowIfNullOrWhiteSpace(dataDirectory);
        var directory = Path.GetFullPath(dataDirectory);
        Directory.CreateDirectory(directory);
        var connectionString = new SqliteConnectionStringBuilder
        {
            DataSource = Path.Combine(directory, DatabaseFileName),
            Mode = SqliteOpenMode.ReadWriteCreate,
            Cache = SqliteCacheMode.Private,
        }.ToString();
        var interceptor = new SqlitePragmaInterceptor();
        services.AddDbContextFactory<NzbDavDbContext>(options => options
            .UseSqlite(connectionString, sqlite => sqlite.MigrationsAssembly(DataAssembly.Name))
            .AddInterceptors(interceptor));
        return services;
    }
}
