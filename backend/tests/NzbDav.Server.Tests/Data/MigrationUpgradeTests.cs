using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Tests.Api;

namespace NzbDav.Server.Tests.Data;

/// <summary>
/// A library made by main at 91bd9a9 (hand-written migration) opened by today's code, whose
/// migrations come from <c>dotnet ef</c>: it must upgrade to exactly the schema a new library gets.
/// </summary>
public sealed class MigrationUpgradeTests
{
    private static string OldDatabase => Path.Combine(AppContext.BaseDirectory, "TestData", "databases", "nzbdav-91bd9a9.db");

    [Fact]
    public async Task A_library_from_the_hand_written_migration_upgrades_to_the_new_schema_with_every_row()
    {
        var ct = TestContext.Current.CancellationToken;
        using var old = new TempDirectory();
        using var fresh = new TempDirectory();
        File.Copy(OldDatabase, Path.Combine(old.Path, DataServiceCollectionExtensions.DatabaseFileName));

        await using (var provider = new ServiceCollection().AddNzbDavData(old.Path).BuildServiceProvider())
        {
            var factory = provider.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await NzbDavDatabase.MigrateAsync(factory, ct);
            await using var context = await factory.CreateDbContextAsync(ct);
            Assert.Empty(await context.Database.GetPendingMigrationsAsync(ct));
            Assert.Equal(context.Database.GetMigrations(), await context.Database.GetAppliedMigrationsAsync(ct));

            var jobs = await context.Jobs.OrderBy(j => j.Name).ToListAsync(ct);
            Assert.Equal(["Broken.Release", "NzbDav.Demo.Stored.RAR5", "NzbDav.Demo.Video"], jobs.Select(j => j.Name));
            Assert.Equal([JobStatus.Failed, JobStatus.Completed, JobStatus.Completed], jobs.Select(j => j.Status));
            Assert.StartsWith("Invalid NZB", jobs[0].FailMessage, StringComparison.Ordinal);
            Assert.Equal(9, await context.DavItems.CountAsync(ct));
            Assert.Equal(3, await context.JobNzbs.CountAsync(ct));
            var video = await context.DavItems.SingleAsync(i => i.Name == "NzbDav.Demo.Video.mkv", ct);
            Assert.Equal(303_904, video.Size);
            Assert.NotNull(video.Layout);
        }

        await using (var provider = new ServiceCollection().AddNzbDavData(fresh.Path).BuildServiceProvider())
        {
            await NzbDavDatabase.MigrateAsync(provider.GetRequiredService<IDbContextFactory<NzbDavDbContext>>(), ct);
        }

        SqliteConnection.ClearAllPools();
        Assert.Equal(await SchemaAsync(fresh.Path, ct), await SchemaAsync(old.Path, ct));
    }

    [Fact]
    public async Task The_server_starts_on_an_old_library_and_its_history_reads_back()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        File.Copy(OldDatabase, Path.Combine(data.Path, DataServiceCollectionExtensions.DatabaseFileName));

        await using (var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct))
        {
            var history = await server.GetAsync($"mode=history&apikey={TestServer.ApiKey}", ct);
            var slots = history.GetProperty("history").GetProperty("slots").EnumerateArray().ToList();
            Assert.Equal(3, slots.Count);
            var broken = Assert.Single(slots, s => s.GetProperty("name").GetString() == "Broken.Release");
            Assert.Equal("Failed", broken.GetProperty("status").GetString());
            Assert.Equal(2, slots.Count(s => s.GetProperty("status").GetString() == "Completed"));
        }

        SqliteConnection.ClearAllPools();
    }

    /// <summary>Every table's columns and every index, as SQLite describes them (EF's own lock table aside).</summary>
    private static async Task<List<string>> SchemaAsync(string directory, CancellationToken cancellationToken)
    {
        await using var connection = new SqliteConnection("Data Source=" + Path.Combine(directory, DataServiceCollectionExtensions.DatabaseFileName));
        await connection.OpenAsync(cancellationToken);
        var schema = new List<string>();
        var tables = new List<string>();
        await using (var command = connection.CreateCommand())
        {
            command.CommandText = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> '__EFMigrationsLock' ORDER BY type, name";
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                schema.Add($"{reader.GetString(0)} {reader.GetString(1)} on {reader.GetString(2)}: {(reader.IsDBNull(3) ? "" : reader.GetString(3))}");
                if (reader.GetString(0) == "table")
                    tables.Add(reader.GetString(1));
            }
        }

        foreach (var table in tables)
        {
            await using var command = connection.CreateCommand();
            command.CommandText = $"SELECT name, type, \"notnull\", pk FROM pragma_table_info('{table}') ORDER BY cid";
            await using var reader = await command.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
                schema.Add($"{table}.{reader.GetString(0)} {reader.GetString(1)} notnull={reader.GetInt64(2)} pk={reader.GetInt64(3)}");
        }

        return schema;
    }
}
