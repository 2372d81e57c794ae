using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;

namespace NzbDav.Data;

/// <summary>Registers the library store.</summary>
public static class DataServiceCollectionExtensions
{
    /// <summary>The database file inside the data directory.</summary>
    public const string DatabaseFileName = "nzbdav.db";

    /// <summary>The assembly holding the PostgreSQL migrations (EF keeps one migrations assembly per provider).</summary>
    public const string PostgresMigrationsAssembly = "NzbDav.Data.Postgres";

    /// <summary>
    /// Registers <see cref="IDbContextFactory{NzbDavDbContext}"/> on <c>&lt;dataDirectory&gt;/nzbdav.db</c>
    /// (the directory is created). Apply migrations with <see cref="NzbDavDatabase.MigrateAsync"/>.
    /// </summary>
    public static IServiceCollection AddNzbDavData(this IServiceCollection services, string dataDirectory) =>
        services.AddNzbDavData(LibraryStore.Sqlite(dataDirectory));

    /// <summary>Registers the <see cref="LibraryStore"/> and <see cref="IDbContextFactory{NzbDavDbContext}"/> on it.</summary>
    public static IServiceCollection AddNzbDavData(this IServiceCollection services, LibraryStore store)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(store);
        services.AddSingleton(store);
        if (store.Provider == StoreProvider.Postgres)
        {
            // Interceptors the host registers (the tests' command counters) see every command too.
            services.AddDbContextFactory<NzbDavDbContext>((provider, options) => options
                .UseNpgsql(store.ConnectionString, npgsql => npgsql.MigrationsAssembly(PostgresMigrationsAssembly))
                .AddInterceptors(provider.GetServices<Microsoft.EntityFrameworkCore.Diagnostics.IInterceptor>()));
            return services;
        }

        var interceptor = new SqlitePragmaInterceptor();
        services.AddDbContextFactory<NzbDavDbContext>((provider, options) => options
            .UseSqlite(store.ConnectionString, sqlite => sqlite.MigrationsAssembly(DataAssembly.Name))
            .AddInterceptors([interceptor, .. provider.GetServices<Microsoft.EntityFrameworkCore.Diagnostics.IInterceptor>()]));
        return services;
    }
}
