using System.Globalization;
using Npgsql;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// The streams-held nodes' library: a PostgreSQL database made for the run on the server
/// <c>--held-postgres</c> names, dropped after it. Also counts the store's transactions, all nodes'.
/// </summary>
internal sealed class HeldLibrary : IAsyncDisposable
{
    private readonly string _admin;
    private readonly string _name;

    private HeldLibrary(string admin, string name, string connectionString)
    {
        _admin = admin;
        _name = name;
        ConnectionString = connectionString;
    }

    public string ConnectionString { get; }

    /// <exception cref="InvalidOperationException">The server cannot be reached or refuses the database (the message never holds the password).</exception>
    public static async Task<HeldLibrary> CreateAsync(string server, CancellationToken cancellationToken)
    {
        NpgsqlConnectionStringBuilder builder;
        try
        {
            builder = new NpgsqlConnectionStringBuilder(server);
        }
        catch (ArgumentException error)
        {
            throw new InvalidOperationException($"--held-postgres is not a PostgreSQL connection string: {error.Message}", error);
        }

        var admin = new NpgsqlConnectionStringBuilder(builder.ConnectionString) { Database = "postgres", Pooling = false }.ConnectionString;
        var name = "nzbdav_held_" + Guid.NewGuid().ToString("N")[..12];
        try
        {
            await using var connection = new NpgsqlConnection(admin);
            await connection.OpenAsync(cancellationToken);
            await using var create = new NpgsqlCommand($"CREATE DATABASE \"{name}\"", connection);
            await create.ExecuteNonQueryAsync(cancellationToken);
        }
        catch (Exception error) when (error is NpgsqlException or System.Net.Sockets.SocketException)
        {
            throw new InvalidOperationException($"--held-postgres: could not make a database on {builder.Host}:{builder.Port} as '{builder.Username}': {error.Message}", error);
        }

        return new HeldLibrary(admin, name, new NpgsqlConnectionStringBuilder(builder.ConnectionString) { Database = name }.ConnectionString);
    }

    /// <summary>The server arguments that make a node of this library named <paramref name="node"/>.</summary>
    public IReadOnlyList<string> NodeArguments(string node) =>
        ["--Database:Provider=postgres", "--Database:ConnectionString=" + ConnectionString, "--Cluster:NodeName=" + node];

    /// <summary>Transactions committed and rolled back in the library so far, as PostgreSQL counts them (its statistics lag by up to a second).</summary>
    public async Task<long> TransactionsAsync(CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(_admin);
        await connection.OpenAsync(cancellationToken);
        // A fresh session sees the statistics as they are now, not a snapshot kept from an earlier read.
        await using var read = new NpgsqlCommand("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = @name", connection);
        read.Parameters.AddWithValue("name", _name);
        return Convert.ToInt64(await read.ExecuteScalarAsync(cancellationToken), CultureInfo.InvariantCulture);
    }

    public async ValueTask DisposeAsync()
    {
        await using var connection = new NpgsqlConnection(_admin);
        await connection.OpenAsync(CancellationToken.None);
        await using var drop = new NpgsqlCommand($"DROP DATABASE IF EXISTS \"{_name}\" WITH (FORCE)", connection);
        await drop.ExecuteNonQueryAsync(CancellationToken.None);
    }
}
