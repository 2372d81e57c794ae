using System.Data.Common;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace NzbDav.Data;

/// <summary>
/// Sets WAL, synchronous=NORMAL and a busy timeout on every opened connection: the API, the queue
/// and WebDAV readers share one file, and without a busy timeout a concurrent writer fails at once.
/// </summary>
public sealed class SqlitePragmaInterceptor : DbConnectionInterceptor
{
    private const string Pragmas = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000; " + CacheSize;

    // A page cache of up to 32 MiB per (pooled) connection instead of SQLite's 2 MiB: listing a folder
    // of 10,000 jobs looks up each job's row, pages spread over the whole Jobs table (36 MB at 100,000
    // jobs). With 2 MiB every listing read them again from the OS (two thirds of its SQL time); with
    // them cached it takes a third. It only grows with pages read, so a small library stays small.
    private const string CacheSize = "PRAGMA cache_size=-32768;";

    // EF opens a read-only connection to ask whether the database exists. Switching a library that is
    // in rollback-journal mode (a backup restored with the sqlite3 tool, say) to WAL is a write, which
    // a read-only connection refuses, so that connection only gets the settings that do not write.
    private const string ReadOnlyPragmas = "PRAGMA busy_timeout=5000; " + CacheSize;

    public override void ConnectionOpened(DbConnection connection, ConnectionEndEventData eventData)
    {
        using var command = connection.CreateCommand();
        command.CommandText = PragmasFor(connection);
        command.ExecuteNonQuery();
    }

    public override async Task ConnectionOpenedAsync(DbConnection connection, ConnectionEndEventData eventData, CancellationToken cancellationToken = default)
    {
        var command = connection.CreateCommand();
        await using (command.ConfigureAwait(false))
        {
            command.CommandText = PragmasFor(connection);
            await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private static string PragmasFor(DbConnection connection) =>
        new SqliteConnectionStringBuilder(connection.ConnectionString).Mode == SqliteOpenMode.ReadOnly ? ReadOnlyPragmas : Pragmas;
}
