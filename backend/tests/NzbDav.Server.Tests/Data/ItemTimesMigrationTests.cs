using System.Globalization;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Data;

/// <summary>
/// A library made before items carried their own time (migration ItemTimes) gives each item its
/// job's time, the one WebDAV showed for it: the completion, or the addition when there is none.
/// </summary>
public sealed class ItemTimesMigrationTests
{
    private static readonly DateTime Added = new(2026, 3, 1, 8, 0, 0, DateTimeKind.Utc);
    private static readonly DateTime Completed = new(2026, 3, 1, 8, 7, 30, 250, DateTimeKind.Utc);

    [Fact]
    public async Task A_sqlite_library_from_before_gets_each_item_its_jobs_time()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using (var services = new ServiceCollection().AddNzbDavData(temp.Path).BuildServiceProvider())
            await AssertBackfilledAsync(services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>(), postgres: false, ct);
        SqliteConnection.ClearAllPools();
    }

    [Fact]
    public async Task A_postgres_library_from_before_gets_each_item_its_jobs_time()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using var services = new ServiceCollection().AddNzbDavData(LibraryStore.Postgres(database.ConnectionString)).BuildServiceProvider();
        await AssertBackfilledAsync(services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>(), postgres: true, ct);
    }

    private static async Task AssertBackfilledAsync(IDbContextFactory<NzbDavDbContext> factory, bool postgres, CancellationToken ct)
    {
        var completedJob = Guid.NewGuid();
        var queuedJob = Guid.NewGuid();
        var (root, file, other) = (Guid.NewGuid(), Guid.NewGuid(), Guid.NewGuid());
        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            var migrations = context.Database.GetMigrations().ToList();
            var itemTimes = migrations.FindIndex(m => m.EndsWith("_ItemTimes", StringComparison.Ordinal));
            Assert.True(itemTimes > 0, "The ItemTimes migration is missing.");
            await context.GetService<IMigrator>().MigrateAsync(migrations[itemTimes - 1], ct);

            // The schema of then has no Modified column: rows are written as that version wrote them.
            await InsertJobAsync(context, postgres, completedJob, "a", Completed, ct);
            await InsertJobAsync(context, postgres, queuedJob, "b", null, ct);
            await InsertItemAsync(context, postgres, root, completedJob, null, "/content/tv/a", ct);
            await InsertItemAsync(context, postgres, file, completedJob, root, "/content/tv/a/e.mkv", ct);
            await InsertItemAsync(context, postgres, other, queuedJob, null, "/content/tv/b", ct);
        }

        await NzbDavDatabase.MigrateAsync(factory, ct);

        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            var times = await context.DavItems.AsNoTracking().ToDictionaryAsync(i => i.Id, i => i.Modified, ct);
            Assert.Equal(Completed, DateTime.SpecifyKind(times[root], DateTimeKind.Utc));
            Assert.Equal(Completed, DateTime.SpecifyKind(times[file], DateTimeKind.Utc));
            Assert.Equal(Added, DateTime.SpecifyKind(times[other], DateTimeKind.Utc));
        }
    }

    private static Task<int> InsertJobAsync(NzbDavDbContext context, bool postgres, Guid id, string name, DateTime? completedAt, CancellationToken ct) =>
        postgres
            ? context.Database.ExecuteSqlAsync($"""
                INSERT INTO "Jobs" ("Id", "NzoId", "Name", "Category", "Priority", "Status", "AddedAt", "CompletedAt", "TotalBytes", "NzbHash", "RemovedFromHistory")
                VALUES ({id}, {"SABnzbd_nzo_" + name}, {name}, 'tv', 0, 0, {Added}, {completedAt}, 0, 'h', FALSE)
                """, ct)
            : context.Database.ExecuteSqlAsync($"""
                INSERT INTO "Jobs" ("Id", "NzoId", "Name", "Category", "Priority", "Status", "AddedAt", "CompletedAt", "TotalBytes", "NzbHash", "RemovedFromHistory")
                VALUES ({Text(id)}, {"SABnzbd_nzo_" + name}, {name}, 'tv', 0, 0, {Text(Added)}, {(completedAt is { } c ? Text(c) : null)}, 0, 'h', 0)
                """, ct);

    private static Task<int> InsertItemAsync(NzbDavDbContext context, bool postgres, Guid id, Guid job, Guid? parent, string path, CancellationToken ct) =>
        postgres
            ? context.Database.ExecuteSqlAsync($"""
                INSERT INTO "DavItems" ("Id", "JobId", "ParentId", "Name", "Path", "IsDirectory", "Size")
                VALUES ({id}, {job}, {parent}, {Path.GetFileName(path)}, {path}, {parent is null}, 0)
                """, ct)
            : context.Database.ExecuteSqlAsync($"""
                INSERT INTO "DavItems" ("Id", "JobId", "ParentId", "Name", "Path", "IsDirectory", "Size")
                VALUES ({Text(id)}, {Text(job)}, {(parent is { } p ? Text(p) : null)}, {Path.GetFileName(path)}, {path}, {(parent is null ? 1 : 0)}, 0)
                """, ct);

    // EF Core's SQLite forms: GUIDs as upper-case text, times as ISO text with a space.
    private static string Text(Guid value) => value.ToString("D").ToUpperInvariant();

    private static string Text(DateTime value) => value.ToString("yyyy-MM-dd HH:mm:ss.FFFFFFF", CultureInfo.InvariantCulture);
}
