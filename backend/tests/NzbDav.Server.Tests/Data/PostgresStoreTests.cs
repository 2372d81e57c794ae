using System.Net;
using System.Text;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Server.Hosting;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Hosting;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Data;

/// <summary>The library in a real PostgreSQL 15 (tools/postgres/setup.sh), each test in a database of its own.</summary>
public sealed class PostgresStoreTests(MockProviderFixture provider)
{
    [Fact]
    public void The_postgres_model_has_no_changes_missing_from_its_migrations()
    {
        // The model is built for the provider without opening anything: no server is needed.
        using var context = new NzbDavDbContext(new DbContextOptionsBuilder<NzbDavDbContext>()
            .UseNpgsql("Host=unused;Database=unused", npgsql => npgsql.MigrationsAssembly(DataServiceCollectionExtensions.PostgresMigrationsAssembly))
            .Options);

        Assert.False(context.Database.HasPendingModelChanges(),
            "The model changed: add the migration for both stores with bash tools/add-migration.sh <Name>.");
        Assert.NotEmpty(context.Database.GetMigrations());
    }

    [Fact]
    public async Task Migrate_makes_the_schema_with_byte_order_text_and_cascading_deletes()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using var services = new ServiceCollection().AddNzbDavData(LibraryStore.Postgres(database.ConnectionString)).BuildServiceProvider();
        var factory = services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        Assert.False(await NzbDavDatabase.MigrateAsync(factory, ct));
        // Twice: a node starting on a library another node already migrated finds nothing to do.
        Assert.False(await NzbDavDatabase.MigrateAsync(factory, ct));

        var jobId = Guid.NewGuid();
        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            Assert.Empty(await context.Database.GetPendingMigrationsAsync(ct));
            context.Jobs.Add(new Job { Id = jobId, NzoId = "SABnzbd_nzo_a", Name = "n", Category = "tv", NzbHash = "h", AddedAt = DateTime.UtcNow });
            context.JobNzbs.Add(new JobNzb { JobId = jobId, GzipData = NzbCompression.Compress("<nzb/>"u8), Length = 6 });
            // '/' sorts before 'a' and 'B' before 'a' byte by byte, unlike in a language collation.
            foreach (var path in new[] { "/content/tv/a", "/content/tv/B", "/content/tv/a/b", "/content/tv0" })
                context.DavItems.Add(new DavItem { Id = Guid.NewGuid(), JobId = jobId, Name = "f", Path = path, Size = 1 });
            await context.SaveChangesAsync(ct);
        }

        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            Assert.Equal(["/content/tv/B", "/content/tv/a", "/content/tv/a/b", "/content/tv0"],
                await context.DavItems.OrderBy(d => d.Path).Select(d => d.Path).ToListAsync(ct));
            Assert.Equal(["/content/tv/B", "/content/tv/a", "/content/tv/a/b"],
                await context.DavItems.Where(d => string.Compare(d.Path, "/content/tv/") > 0 && string.Compare(d.Path, "/content/tv0") < 0)
                    .OrderBy(d => d.Path).Select(d => d.Path).ToListAsync(ct));
            await context.Jobs.Where(j => j.Id == jobId).ExecuteDeleteAsync(ct);
            Assert.Equal(0, await context.JobNzbs.CountAsync(ct));
            Assert.Equal(0, await context.DavItems.CountAsync(ct));
        }
    }

    [Fact]
    public async Task A_server_on_postgres_ingests_serves_lists_pauses_and_keeps_settings_and_health_across_a_restart()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var nntp = provider.Server;
        var content = new byte[300_000];
        new Random(34).NextBytes(content);
        var file = nntp.Store.AddFile("Pg.Show.S01E01.mkv", content, 100_000);
        var nzb = provider.Nzb("Pg.Show.S01E01", file);

        string nzoId;
        await using (var host = await IngestionHost.StartAsync(temp.Path, nntp.Port, ct, null, [.. database.HostArguments()]))
        {
            var slot = await host.AddAndWaitAsync(nzb, "Pg.Show.S01E01.nzb", ct);
            Assert.Equal("Completed", slot.GetProperty("status").GetString());
            nzoId = slot.GetProperty("nzo_id").GetString()!;

            using (var get = await host.GetAsync("Pg.Show.S01E01", "Pg.Show.S01E01.mkv", ct))
            {
                Assert.Equal(HttpStatusCode.OK, get.StatusCode);
                Assert.Equal(content, await get.Content.ReadAsByteArrayAsync(ct));
            }

            using (var ranged = await host.GetAsync("Pg.Show.S01E01", "Pg.Show.S01E01.mkv", ct, "bytes=150000-150099"))
            {
                Assert.Equal(HttpStatusCode.PartialContent, ranged.StatusCode);
                Assert.Equal(content.AsSpan(150_000, 100).ToArray(), await ranged.Content.ReadAsByteArrayAsync(ct));
            }

            // /content lists the categories jobs have (a recursive query), /content/tv its job folders (a range of paths).
            Assert.Contains("/content/tv/", await PropfindAsync(host.Dav, "/content/", ct));
            Assert.Contains("/content/tv/Pg.Show.S01E01/", await PropfindAsync(host.Dav, "/content/tv/", ct));

            // SABnzbd's history, whole and by category, is read in its order.
            foreach (var query in new[] { "mode=history", "mode=history&category=tv", "mode=history&category=tv&start=0&limit=1" })
            {
                var history = (await host.Server.GetAsync(query + "&apikey=" + TestServer.ApiKey, ct)).GetProperty("history");
                Assert.Equal(nzoId, Assert.Single(history.GetProperty("slots").EnumerateArray()).GetProperty("nzo_id").GetString());
            }

            // The queue's pause is one upsert: pausing twice and resuming leaves one row, resumed.
            foreach (var mode in new[] { "pause", "pause", "resume" })
                Assert.True((await host.Server.GetAsync($"mode={mode}&apikey={TestServer.ApiKey}", ct)).GetProperty("status").GetBoolean());

            await host.Server.Services.GetRequiredService<StoredSettings>().SaveSettingsAsync(
                new Dictionary<string, string?> { ["Health:MaxConsecutiveMissing"] = "7" }, ct);

            // As if the library came from before health records: the next start must give the file one.
            var factory = host.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await using var context = await factory.CreateDbContextAsync(ct);
            Assert.Equal(1, await context.FileHealth.ExecuteDeleteAsync(ct));
        }

        await using (var host = await IngestionHost.StartAsync(temp.Path, nntp.Port, ct, null, [.. database.HostArguments()]))
        {
            // The saved setting is read from PostgreSQL before the services exist.
            Assert.Equal("7", host.Server.Services.GetRequiredService<IConfiguration>()["Health:MaxConsecutiveMissing"]);
            var factory = host.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            var health = await Waiting.PollAsync(async token =>
            {
                await using var context = await factory.CreateDbContextAsync(token);
                return await context.FileHealth.AsNoTracking().SingleOrDefaultAsync(token);
            }, h => h is not null, "the health record the restart should give the file", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(50), null, ct);
            Assert.InRange(health!.NextCheckAt, DateTime.UtcNow.AddMinutes(-1), DateTime.UtcNow.AddHours(24).AddMinutes(1));

            using var get = await host.GetAsync("Pg.Show.S01E01", "Pg.Show.S01E01.mkv", ct, "bytes=0-99");
            Assert.Equal(content.AsSpan(0, 100).ToArray(), await get.Content.ReadAsByteArrayAsync(ct));
            var paused = (await host.Server.GetAsync("mode=queue&apikey=" + TestServer.ApiKey, ct)).GetProperty("queue").GetProperty("paused").GetBoolean();
            Assert.False(paused);
        }
    }

    [Fact]
    public async Task A_wrong_password_stops_the_start_naming_the_store_and_never_the_password()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var database = await PostgresDatabase.CreateAsync(ct);
        const string Wrong = "not-the-password-9f3c";
        var connectionString = new NpgsqlConnectionStringBuilder(database.ConnectionString) { Password = Wrong }.ConnectionString;

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => new TestHostBuilder(temp.Path, "k")
            .WithArguments("--Database:Provider=postgres", "--Database:ConnectionString=" + connectionString).StartAsync(ct));

        Assert.Contains($"PostgreSQL database '{database.Name}' on 127.0.0.1:5432 as 'nzbdav'", error.Message);
        Assert.Contains("password authentication failed", error.Message);
        Assert.DoesNotContain(Wrong, error.ToString());
    }

    [Theory]
    [InlineData("", "0")]
    [InlineData("-c search_path=public", "0")]
    [InlineData("-c max_parallel_workers_per_gather=2", "2")]
    public async Task Sessions_plan_without_parallel_workers_unless_the_connection_string_says_otherwise(string options, string expected)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var given = new NpgsqlConnectionStringBuilder(database.ConnectionString) { Options = options }.ConnectionString;
        await using var connection = new NpgsqlConnection(LibraryStore.Postgres(given).ConnectionString);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand("SELECT current_setting('max_parallel_workers_per_gather'), current_setting('search_path')", connection);
        await using var reader = await command.ExecuteReaderAsync(ct);
        Assert.True(await reader.ReadAsync(ct));
        Assert.Equal(expected, reader.GetString(0));
        if (options.Contains("search_path", StringComparison.Ordinal))
            Assert.Equal("public", reader.GetString(1));
    }

    [Theory]
    [InlineData("mysql", "Database:Provider 'mysql' is not a store NzbDav knows: use sqlite (the default) or postgres.")]
    [InlineData("postgres", "Database:ConnectionString is required with Database:Provider=postgres")]
    public void An_unusable_database_setting_is_refused_before_anything_starts(string providerName, string expected)
    {
        using var temp = new TempDirectory();
        var error = Assert.Throws<InvalidOperationException>(() => NzbDavHost.Build(["--NzbDav:DataDirectory=" + temp.Path, "--Database:Provider=" + providerName]));
        Assert.StartsWith(expected, error.Message);
        Assert.False(File.Exists(Path.Combine(temp.Path, DataServiceCollectionExtensions.DatabaseFileName)));
    }

    [Fact]
    public async Task A_library_a_newer_version_migrated_is_refused_and_left_as_it_was()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using (var services = new ServiceCollection().AddNzbDavData(LibraryStore.Postgres(database.ConnectionString)).BuildServiceProvider())
        {
            var factory = services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await NzbDavDatabase.MigrateAsync(factory, ct);
            await using var context = await factory.CreateDbContextAsync(ct);
            await context.Database.ExecuteSqlRawAsync("""INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion") VALUES ('29990101000000_FromTheFuture', '99.0.0')""", ct);
        }

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => new TestHostBuilder(temp.Path, "k")
            .WithArguments(database.HostArguments()).StartAsync(ct));

        Assert.Contains("upgraded by a newer NzbDav", error.Message);
        Assert.Contains("29990101000000_FromTheFuture", error.Message);
        await using var connection = new NpgsqlConnection(database.ConnectionString);
        await connection.OpenAsync(ct);
        await using var count = new NpgsqlCommand("""SELECT COUNT(*) FROM "ConfigItems" """, connection);
        Assert.Equal(0L, await count.ExecuteScalarAsync(ct));
    }

    [Fact]
    public async Task Migrate_to_postgres_copies_a_used_library_verified_and_leaves_the_sqlite_file_as_it_was()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var nntp = provider.Server;
        var content = new byte[250_000];
        new Random(341).NextBytes(content);
        var file = nntp.Store.AddFile("Moved.Film.2026.mkv", content, 100_000);
        string nzoId;
        await using (var host = await IngestionHost.StartAsync(temp.Path, nntp.Port, ct, null, "--Database:Provider=sqlite"))
        {
            nzoId = (await host.AddAndWaitAsync(provider.Nzb("Moved.Film.2026", file), "Moved.Film.2026.nzb", ct)).GetProperty("nzo_id").GetString()!;
            await host.Server.Services.GetRequiredService<StoredSettings>().SaveSettingsAsync(new Dictionary<string, string?> { ["Health:MaxConsecutiveMissing"] = "5" }, ct);
            var factory = host.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await using var context = await factory.CreateDbContextAsync(ct);
            // A row with a generated id: the next one PostgreSQL numbers must not collide with it.
            context.HealthAudit.Add(new HealthAuditEntry { At = DateTime.UtcNow, Path = "/content/tv/x", Action = "checked", Detail = "ok" });
            await context.SaveChangesAsync(ct);
        }

        SqliteConnection.ClearAllPools();
        var sqlite = Path.Combine(temp.Path, DataServiceCollectionExtensions.DatabaseFileName);
        var before = Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(await File.ReadAllBytesAsync(sqlite, ct)));
        var source = LibraryStore.Sqlite(temp.Path);
        var target = LibraryStore.Postgres(database.ConnectionString);
        var lines = new List<string>();

        var report = await StoreCopy.SqliteToPostgresAsync(source, target, lines.Add, ct);

        Assert.Equal(before, Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(await File.ReadAllBytesAsync(sqlite, ct))));
        Assert.Equal(1, report.Tables.Single(t => t.Table == "Jobs").Rows);
        Assert.Equal(2, report.Tables.Single(t => t.Table == "DavItems").Rows);
        Assert.Equal(1, report.Tables.Single(t => t.Table == "HealthAudit").Rows);
        Assert.Equal(1, report.Tables.Single(t => t.Table == "ConfigItems").Rows);
        Assert.Contains(lines, l => l.StartsWith("Verified DavItems: 2 rows, checksum ", StringComparison.Ordinal));
        // Planned with statistics and read through index-only scans from the first listing on.
        await using (var connection = new NpgsqlConnection(database.ConnectionString))
        {
            await connection.OpenAsync(ct);
            await using var vacuumed = new NpgsqlCommand("""SELECT reltuples, relallvisible FROM pg_class WHERE relname = 'DavItems'""", connection);
            await using var reader = await vacuumed.ExecuteReaderAsync(ct);
            Assert.True(await reader.ReadAsync(ct));
            Assert.Equal(2f, reader.GetFloat(0));
            Assert.True(reader.GetInt32(1) > 0, "DavItems has no page marked all-visible: it was not vacuumed.");
        }

        // A second run would copy over a library: refused, the first copy untouched.
        var again = await Assert.ThrowsAsync<InvalidOperationException>(() => StoreCopy.SqliteToPostgresAsync(source, target, _ => { }, ct));
        Assert.Contains("already holds a library", again.Message);
        Assert.Equal(report.Tables, await StoreCopy.VerifyAsync(source, target, ct));

        await using (var host = await IngestionHost.StartAsync(temp.Path, nntp.Port, ct, null, [.. database.HostArguments()]))
        {
            Assert.Equal("5", host.Server.Services.GetRequiredService<IConfiguration>()["Health:MaxConsecutiveMissing"]);
            var history = (await host.Server.GetAsync("mode=history&apikey=" + TestServer.ApiKey, ct)).GetProperty("history");
            Assert.Equal(nzoId, Assert.Single(history.GetProperty("slots").EnumerateArray()).GetProperty("nzo_id").GetString());
            using var get = await host.GetAsync("Moved.Film.2026", "Moved.Film.2026.mkv", ct);
            Assert.Equal(content, await get.Content.ReadAsByteArrayAsync(ct));
            var factory = host.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await using var context = await factory.CreateDbContextAsync(ct);
            context.HealthAudit.Add(new HealthAuditEntry { At = DateTime.UtcNow, Path = "/content/tv/y", Action = "checked", Detail = "ok" });
            await context.SaveChangesAsync(ct);
            Assert.Equal(2, await context.HealthAudit.MaxAsync(a => a.Id, ct));
        }

        // The node on PostgreSQL made the web UI's key ring there (on SQLite it was a file): not the copy's.
        await using (var connection = new NpgsqlConnection(database.ConnectionString))
        {
            await connection.OpenAsync(ct);
            await using var keys = new NpgsqlCommand("DELETE FROM \"DataProtectionKeys\"", connection);
            await keys.ExecuteNonQueryAsync(ct);
        }

        var grown = await Assert.ThrowsAsync<InvalidOperationException>(() => StoreCopy.VerifyAsync(source, target, ct));
        Assert.StartsWith("HealthAudit did not copy true: SQLite has 1 rows", grown.Message);
        // The same counts with one character changed in one row: the checksum sees it.
        await using (var connection = new NpgsqlConnection(database.ConnectionString))
        {
            await connection.OpenAsync(ct);
            await using var undo = new NpgsqlCommand("DELETE FROM \"HealthAudit\" WHERE \"Id\" = 2; UPDATE \"Jobs\" SET \"Name\" = 'Moved.Film.2027'", connection);
            await undo.ExecuteNonQueryAsync(ct);
        }

        var changed = await Assert.ThrowsAsync<InvalidOperationException>(() => StoreCopy.VerifyAsync(source, target, ct));
        Assert.StartsWith("Jobs did not copy true: SQLite has 1 rows", changed.Message);
    }

    [Fact]
    public async Task Migrate_to_postgres_as_a_command_says_what_is_wrong_and_exits_1()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var output = new StringWriter();
        var error = new StringWriter();

        var code = await MigrateToPostgresCommand.RunAsync(["--NzbDav:DataDirectory=" + temp.Path, "--Database:ConnectionString=" + database.ConnectionString], output, error, ct);

        Assert.Equal(1, code);
        Assert.Equal($"The migration stopped: There is no library at {Path.Combine(temp.Path, DataServiceCollectionExtensions.DatabaseFileName)}: set NzbDav:DataDirectory to the data directory that holds nzbdav.db.", error.ToString().Trim());
        Assert.False(File.Exists(Path.Combine(temp.Path, DataServiceCollectionExtensions.DatabaseFileName)));
    }

    private static async Task<string> PropfindAsync(HttpClient dav, string path, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), path);
        request.Headers.Add("Depth", "1");
        request.Content = new StringContent("""<?xml version="1.0"?><propfind xmlns="DAV:"><allprop/></propfind>""", Encoding.UTF8, "application/xml");
        using var response = await dav.SendAsync(request, cancellationToken);
        Assert.Equal((HttpStatusCode)207, response.StatusCode);
        return await response.Content.ReadAsStringAsync(cancellationToken);
    }
}
