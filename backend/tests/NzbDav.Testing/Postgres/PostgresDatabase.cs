using Npgsql;

namespace NzbDav.Testing.Postgres;

/// <summary>
/// A database of its own on the test PostgreSQL server (tools/postgres/setup.sh: 127.0.0.1:5432,
/// role nzbdav), created empty and dropped, with any session still on it, when disposed.
/// <c>NZBDAV_TEST_POSTGRES</c> names another server (a connection string without a database).
/// </summary>
public sealed class PostgresDatabase : IAsyncDisposable
{
    /// <summary>The server and role the tests use, unless <c>NZBDAV_TEST_POSTGRES</c> says otherwise.</summary>
    public const string DefaultServer = "Host=127.0.0.1;Port=5432;Username=nzbdav;Password=nzbdav-test";

    private readonly string _admin;

    private PostgresDatabase(string admin, string name, string connectionString)
    {
        _admin = admin;
        Name = name;
        ConnectionString = connectionString;
    }

    public string Name { get; }

    /// <summary>The connection string of this database (pooled, as a server's is; the drop ends any session left).</summary>
    public string ConnectionString { get; }

    /// <summary>The server's connection string (its <c>postgres</c> database).</summary>
    public static string Server => Environment.GetEnvironmentVariable("NZBDAV_TEST_POSTGRES") is { Length: > 0 } configured ? configured : DefaultServer;

    public static async Task<PostgresDatabase> CreateAsync(CancellationToken cancellationToken)
    {
        var admin = new NpgsqlConnectionStringBuilder(Server) { Database = "postgres", Pooling = false }.ConnectionString;
        var name = "nzbdav_t_" + Guid.NewGuid().ToString("N")[..16];
        await using (var connection = new NpgsqlConnection(admin))
        {
            await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
            await using var command = new NpgsqlCommand($"CREATE DATABASE \"{name}\"", connection);
            await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }

        var connectionString = new NpgsqlConnectionStringBuilder(Server) { Database = name }.ConnectionString;
        return new PostgresDatabase(admin, name, connectionString);
    }

    /// <summary>
    /// The host arguments of the database that stands for <paramref name="dataDirectory"/>'s library
    /// (created when missing, kept: a restarted host reads it again). For whole-suite runs on
    /// PostgreSQL; <c>DROP DATABASE</c> the <c>nzbdav_d_*</c> ones afterwards.
    /// </summary>
    public static async Task<IEnumerable<string>> ForDirectoryAsync(string dataDirectory, CancellationToken cancellationToken)
    {
        var hash = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(Path.GetFullPath(dataDirectory))))[..20];
        var name = "nzbdav_d_" + hash;
        var admin = new NpgsqlConnectionStringBuilder(Server) { Database = "postgres", Pooling = false }.ConnectionString;
        await using (var connection = new NpgsqlConnection(admin))
        {
            await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
            await using var exists = new NpgsqlCommand("SELECT COUNT(*) FROM pg_database WHERE datname = @name", connection);
            exists.Parameters.AddWithValue("name", name);
            if (Convert.ToInt64(await exists.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false), System.Globalization.CultureInfo.InvariantCulture) == 0)
            {
                await using var create = new NpgsqlCommand($"CREATE DATABASE \"{name}\"", connection);
                await create.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
            }
        }

        var connectionString = new NpgsqlConnectionStringBuilder(Server) { Database = name }.ConnectionString;
        return ["--Database:Provider=postgres", "--Database:ConnectionString=" + connectionString];
    }

    /// <summary>The arguments that put a host's library in this database.</summary>
    public IEnumerable<string> HostArguments() =>
        ["--Database:Provider=postgres", "--Database:ConnectionString=" + ConnectionString];

    public async ValueTask DisposeAsync()
    {
        await using var connection = new NpgsqlConnection(_admin);
        await connection.OpenAsync(CancellationToken.None).ConfigureAwait(false);
        await using var command = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{Name}\" WITH (FORCE)", connection);
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await command.ExecuteNonQueryAsync(CancellationToken.None).ConfigureAwait(false);
                return;
            }
            catch (PostgresException error) when (error.SqlState == PostgresErrorCodes.InsufficientPrivilege && attempt < 50)
            {
                // An autovacuum worker (a superuser's process, which this role may not end) is on the
                // new database: it finishes within moments.
                await Task.Delay(100, CancellationToken.None).ConfigureAwait(false);
            }
        }
    }
}
