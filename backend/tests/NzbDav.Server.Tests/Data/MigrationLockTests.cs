using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;

namespace NzbDav.Server.Tests.Data;

/// <summary>
/// EF Core's SQLite migration lock is a row that a process killed mid-<c>Migrate</c> leaves behind;
/// without the clean-up every later start waited for it forever (found by <c>--test-crash</c>).
/// </summary>
public sealed class MigrationLockTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task A_migration_lock_row_a_killed_start_left_is_cleared_and_the_migration_runs()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var provider = new ServiceCollection().AddNzbDavData(temp.Path).BuildServiceProvider();
        var factory = provider.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        Assert.False(await NzbDavDatabase.MigrateAsync(factory, ct));
        await ExecuteAsync(temp.Path, "INSERT INTO \"__EFMigrationsLock\" (\"Id\", \"Timestamp\") VALUES (1, '2026-01-01 00:00:00+00:00')", ct);

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(Deadline);
        Assert.True(await NzbDavDatabase.MigrateAsync(factory, deadline.Token), "the stale lock row should have been found and cleared");
        Assert.Equal(0L, await ExecuteAsync(temp.Path, "SELECT COUNT(*) FROM \"__EFMigrationsLock\"", ct));
        // Nothing left for the next start either.
        Assert.False(await NzbDavDatabase.MigrateAsync(factory, deadline.Token));
        SqliteConnection.ClearAllPools();
    }

    private static async Task<long> ExecuteAsync(string directory, string sql, CancellationToken cancellationToken)
    {
        await using var connection = new SqliteConnection(new SqliteConnectionStringBuilder
        {
            DataSource = Path.Combine(directory, DataServiceCollectionExtensions.DatabaseFileName),
            Pooling = false,
        }.ToString());
        await connection.OpenAsync(cancellationToken);
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        return sql.StartsWith("SELECT", StringComparison.Ordinal) ? (long)(await command.ExecuteScalarAsync(cancellationToken))! : await command.ExecuteNonQueryAsync(cancellationToken);
    }
}
