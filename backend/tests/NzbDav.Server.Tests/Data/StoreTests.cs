using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Tests.Data;

public sealed class StoreTests
{
    [Fact]
    public async Task Model_has_no_changes_missing_from_the_migrations()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var provider = BuildProvider(temp.Path);
        var factory = provider.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await using var context = await factory.CreateDbContextAsync(ct);

        Assert.False(context.Database.HasPendingModelChanges(), "The model changed: add a migration with dotnet ef migrations add (docs/architecture.md).");
    }

    [Fact]
    public async Task Migrate_creates_the_schema_in_wal_mode_and_cascades_deletes()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var provider = BuildProvider(temp.Path);
        var factory = provider.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await NzbDavDatabase.MigrateAsync(factory, ct);

        var jobId = Guid.NewGuid();
        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            Assert.Empty(await context.Database.GetPendingMigrationsAsync(ct));
            context.Jobs.Add(new Job { Id = jobId, NzoId = "SABnzbd_nzo_a", Name = "n", Category = "tv", NzbHash = "h", AddedAt = DateTime.UtcNow });
            context.JobNzbs.Add(new JobNzb { JobId = jobId, GzipData = NzbCompression.Compress("<nzb/>"u8), Length = 6 });
            context.DavItems.Add(new DavItem { Id = Guid.NewGuid(), JobId = jobId, Name = "f", Path = "/content/tv/n/f", Size = 1 });
            await context.SaveChangesAsync(ct);

            var mode = await context.Database.SqlQueryRaw<string>("PRAGMA journal_mode").ToListAsync(ct);
            Assert.Equal("wal", Assert.Single(mode));
        }

        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            await context.Jobs.Where(j => j.Id == jobId).ExecuteDeleteAsync(ct);
            Assert.Equal(0, await context.JobNzbs.CountAsync(ct));
            Assert.Equal(0, await context.DavItems.CountAsync(ct));
        }

        SqliteConnection.ClearAllPools();
    }

    [Fact]
    public async Task Duplicate_nzo_id_is_refused_by_the_unique_index()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var provider = BuildProvider(temp.Path);
        var factory = provider.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await NzbDavDatabase.MigrateAsync(factory, ct);
        await using var context = await factory.CreateDbContextAsync(ct);
        context.Jobs.Add(new Job { Id = Guid.NewGuid(), NzoId = "same", Name = "a", Category = "tv", NzbHash = "h" });
        context.Jobs.Add(new Job { Id = Guid.NewGuid(), NzoId = "same", Name = "b", Category = "tv", NzbHash = "h" });

        await Assert.ThrowsAsync<DbUpdateException>(() => context.SaveChangesAsync(ct));
        SqliteConnection.ClearAllPools();
    }

    private static ServiceProvider BuildProvider(string directory) =>
        new ServiceCollection().AddNzbDavData(directory).BuildServiceProvider();
}
