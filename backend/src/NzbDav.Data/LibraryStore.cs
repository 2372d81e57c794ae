using System.Data.Common;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace NzbDav.Data;

/// <summary>Which database engine holds the library.</summary>
public enum StoreProvider
{
    /// <summary>One file in the data directory: the embedded default, one node.</summary>
    Sqlite,

    /// <summary>A PostgreSQL database: several nodes can share the library.</summary>
    Postgres,
}

/// <summary>The <c>Database</c> settings, read once at start (the library cannot move under a running server).</summary>
public sealed class DatabaseOptions
{
    public const string SectionName = "Database";

    /// <summary><c>sqlite</c> (the default) or <c>postgres</c>.</summary>
    public string Provider { get; set; } = "sqlite";

    /// <summary>For <c>postgres</c>: an Npgsql connection string (<c>Host=…;Database=…;Username=…;Password=…</c>).</summary>
    public string? ConnectionString { get; set; }
}

/// <summary>Where the library is stored, resolved from <see cref="DatabaseOptions"/> and the data directory.</summary>
public sealed class LibraryStore
{
    /// <summary>The name EF Core gives the PostgreSQL provider (<c>DatabaseFacade.ProviderName</c>).</summary>
    public const string PostgresProviderName = "Npgsql.EntityFrameworkCore.PostgreSQL";

    private const string SerialPlansSetting = "max_parallel_workers_per_gather";

    private LibraryStore(StoreProvider provider, string connectionString, string description, string? sqlitePath)
    {
        Provider = provider;
        ConnectionString = connectionString;
        Description = description;
        SqlitePath = sqlitePath;
    }

    public StoreProvider Provider { get; }

    /// <summary>The full connection string, password included: never log it; log <see cref="Description"/>.</summary>
    public string ConnectionString { get; }

    /// <summary>The store in words for logs and errors, without any password.</summary>
    public string Description { get; }

    /// <summary>The SQLite file, or null on PostgreSQL.</summary>
    public string? SqlitePath { get; }

    /// <summary>The SQLite file <c>&lt;dataDirectory&gt;/nzbdav.db</c> (the directory is created).</summary>
    public static LibraryStore Sqlite(string dataDirectory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(dataDirectory);
        var directory = Path.GetFullPath(dataDirectory);
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, DataServiceCollectionExtensions.DatabaseFileName);
        var connectionString = new SqliteConnectionStringBuilder
        {
            DataSource = path,
            Mode = SqliteOpenMode.ReadWriteCreate,
            Cache = SqliteCacheMode.Private,
        }.ToString();
        return new LibraryStore(StoreProvider.Sqlite, connectionString, "SQLite file " + path, path);
    }

    /// <summary>A PostgreSQL database; the connection string is checked for form here, not for reach.</summary>
    /// <exception cref="InvalidOperationException">It is empty or not a PostgreSQL connection string (the message never holds it).</exception>
    public static LibraryStore Postgres(string? connectionString)
    {
        if (string.IsNullOrWhiteSpace(connectionString))
        {
            throw new InvalidOperationException(
                "Database:ConnectionString is required with Database:Provider=postgres, e.g. Host=db;Database=nzbdav;Username=nzbdav;Password=… (docs/scale-out.md).");
        }

        NpgsqlConnectionStringBuilder builder;
        try
        {
            builder = new NpgsqlConnectionStringBuilder(connectionString);
        }
        catch (ArgumentException error)
        {
            // The parser's message names the keyword it did not take, never a value.
            throw new InvalidOperationException($"Database:ConnectionString is not a PostgreSQL connection string: {error.Message}", error);
        }

        if (string.IsNullOrWhiteSpace(builder.Host))
            throw new InvalidOperationException("Database:ConnectionString names no Host: add Host=<the PostgreSQL server> (docs/scale-out.md).");
        // NzbDav's queries are many, small and indexed. The planner still gives a 10,000-child folder
        // listing two parallel workers, whose start-up made it 4 times slower (100 ms instead of 25)
        // on a 2-core host, where the workers share the cores the node serves from. A setting the
        // connection string already passes is left as it is.
        if (builder.Options?.Contains(SerialPlansSetting, StringComparison.Ordinal) != true)
            builder.Options = string.IsNullOrWhiteSpace(builder.Options) ? "-c " + SerialPlansSetting + "=0" : builder.Options + " -c " + SerialPlansSetting + "=0";
        var database = string.IsNullOrEmpty(builder.Database) ? builder.Username : builder.Database;
        var description = $"PostgreSQL database '{database}' on {builder.Host}:{builder.Port} as '{builder.Username}'";
        return new LibraryStore(StoreProvider.Postgres, builder.ConnectionString, description, null);
    }

    /// <summary>The store <paramref name="options"/> name; SQLite in <paramref name="dataDirectory"/> when they name none.</summary>
    /// <exception cref="InvalidOperationException">The provider is neither sqlite nor postgres, or its connection string is unusable.</exception>
    public static LibraryStore Resolve(string dataDirectory, DatabaseOptions? options)
    {
        var provider = options?.Provider?.Trim();
        if (string.IsNullOrEmpty(provider) || provider.Equals("sqlite", StringComparison.OrdinalIgnoreCase))
            return Sqlite(dataDirectory);
        if (provider.Equals("postgres", StringComparison.OrdinalIgnoreCase) || provider.Equals("postgresql", StringComparison.OrdinalIgnoreCase))
            return Postgres(options!.ConnectionString);
        throw new InvalidOperationException($"Database:Provider '{provider}' is not a store NzbDav knows: use sqlite (the default) or postgres.");
    }

    /// <summary>
    /// A new, closed connection for reads outside EF (the configuration layers, before the services
    /// exist). <paramref name="readOnly"/> opens a SQLite file without ever creating it.
    /// </summary>
    public DbConnection CreateConnection(bool readOnly)
    {
        if (Provider == StoreProvider.Postgres)
            return new NpgsqlConnection(ConnectionString);
        var builder = new SqliteConnectionStringBuilder(ConnectionString);
        if (readOnly)
        {
            builder.Mode = SqliteOpenMode.ReadOnly;
            builder.Pooling = false;
        }

        return new SqliteConnection(builder.ToString());
    }

    /// <summary>Whether the store can hold anything yet: a SQLite file that exists; PostgreSQL is asked instead.</summary>
    public bool MayExist => Provider == StoreProvider.Postgres || File.Exists(SqlitePath);
}
