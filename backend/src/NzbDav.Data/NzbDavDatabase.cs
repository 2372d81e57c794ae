using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace NzbDav.Data;

/// <summary>Startup helpers for the store.</summary>
public static class NzbDavDatabase
{
    /// <summary>The file beside the database whose OS lock serialises migrations between processes.</summary>
    public const string MigrationLockSuffix = ".migrate.lock";

    private static readonly TimeSpan LockRetry = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Applies every pending migration (creating the database on first start). Answers whether a
    /// stale migration lock was cleared first.
    /// </summary>
    /// <remarks>
    /// EF Core's SQLite migration lock is a row in <c>__EFMigrationsLock</c>, taken on every
    /// <c>Migrate</c> (even with nothing to apply) and deleted at its end. A process killed in between
    /// (kill -9, the OOM killer, a power cut) leaves the row behind, and every later start then waits
    /// for it forever. So migrations run under an OS lock on a file beside the database, which the
    /// kernel drops the moment its holder dies: whoever holds it is the only migrator alive, and a
    /// row found then is a dead process's and is deleted.
    /// </remarks>
    public static async Task<bool> MigrateAsync(IDbContextFactory<NzbDavDbContext> factory, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(factory);
        var context = await factory.CreateDbContextAsync(cancellationToken).ConfigureAwait(false);
        await using (context.ConfigureAwait(false))
        {
            if (!context.Database.IsSqlite())
            {
                // PostgreSQL's migration lock is the server's own (released with the session), so a
                // killed node leaves nothing behind for the next one to clear. EF finds out whether
                // the history table exists by querying it, which logs a failed command at every first
                // start: made first (EF's own script, idempotent), a new database is no error.
                var history = context.GetService<Microsoft.EntityFrameworkCore.Migrations.IHistoryRepository>();
                await context.Database.ExecuteSqlRawAsync(history.GetCreateIfNotExistsScript(), cancellationToken).ConfigureAwait(false);
                await RefuseNewerSchemaAsync(context, cancellationToken).ConfigureAwait(false);
                await context.Database.MigrateAsync(cancellationToken).ConfigureAwait(false);
                return false;
            }

            var path = new SqliteConnectionStringBuilder(context.Database.GetConnectionString()).DataSource;
            if (string.IsNullOrEmpty(path) || path.Equals(":memory:", StringComparison.Ordinal))
            {
                await context.Database.MigrateAsync(cancellationToken).ConfigureAwait(false);
                return false;
            }

            var fileLock = await AcquireAsync(Path.GetFullPath(path) + MigrationLockSuffix, cancellationToken).ConfigureAwait(false);
            await using (fileLock.ConfigureAwait(false))
            {
                var cleared = await ClearStaleLockAsync(path, cancellationToken).ConfigureAwait(false);
                await RefuseNewerSchemaAsync(context, cancellationToken).ConfigureAwait(false);
                await context.Database.MigrateAsync(cancellationToken).ConfigureAwait(false);
                return cleared;
            }
        }
    }

    /// <summary>
    /// Refuses a library a newer NzbDav has migrated: this version's model does not describe that
    /// schema, and anything it wrote could break what the newer one stores. Nothing is written.
    /// </summary>
    /// <exception cref="InvalidOperationException">The store holds a migration this build does not know.</exception>
    public static async Task RefuseNewerSchemaAsync(NzbDavDbContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        var known = context.Database.GetMigrations().ToList();
        var applied = await context.Database.GetAppliedMigrationsAsync(cancellationToken).ConfigureAwait(false);
        var unknown = applied.Where(m => !known.Contains(m, StringComparer.Ordinal)).Order(StringComparer.Ordinal).ToList();
        if (unknown.Count == 0)
            return;
        throw new InvalidOperationException(
            $"The library was upgraded by a newer NzbDav: its schema has migration {unknown[^1]}, which this version does not know " +
            $"(it knows up to {known.LastOrDefault() ?? "none"}). Run the newer version on every node, or restore a backup made before the upgrade; this version wrote nothing.");
    }

    /// <summary>
    /// Opens <paramref name="path"/> exclusively (on Linux and macOS .NET takes an advisory
    /// <c>flock</c> for <see cref="FileShare.None"/>), waiting while another process or host holds it.
    /// </summary>
    private static async Task<FileStream> AcquireAsync(string path, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        while (true)
        {
            try
            {
                return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 1, FileOptions.None);
            }
            catch (IOException)
            {
                // Held by a migration in progress elsewhere: it ends, or its process dies and the lock with it.
                await Task.Delay(LockRetry, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Deletes the EF migration lock row, if the table and a row exist; whether one did.</summary>
    private static async Task<bool> ClearStaleLockAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
            return false;
        var connectionString = new SqliteConnectionStringBuilder { DataSource = path, Mode = SqliteOpenMode.ReadWrite, Pooling = false, DefaultTimeout = 30 }.ToString();
        var connection = new SqliteConnection(connectionString);
        await using (connection.ConfigureAwait(false))
        {
            await connection.OpenAsync(cancellationToken).ConfigureAwait(false);
            var command = connection.CreateCommand();
            await using (command.ConfigureAwait(false))
            {
                command.CommandText = "PRAGMA busy_timeout=5000; SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '__EFMigrationsLock'";
                if (Convert.ToInt64(await command.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false), System.Globalization.CultureInfo.InvariantCulture) == 0)
                    return false;
                command.CommandText = "DELETE FROM \"__EFMigrationsLock\"";
                return await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false) > 0;
            }
        }
    }
}
