using System.Text.Json;
using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Queue;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Server.WebDav;
using NzbDav.Testing;
using NzbDav.Tools.Testing.Scale;

namespace NzbDav.Server.Tests.Testing;

/// <summary>
/// <c>--test-scale</c>: a small run of the command (its child is the real <c>NzbDav.dll</c>), the
/// generated library as the real server shows it, and the query plans of the calls it measures.
/// </summary>
public sealed class ScaleCommandTests
{
    private const string UiPassword = "scale test password";

    private static readonly ScaleLibrarySpec Small = new(Jobs: 220, FilesPerJob: 3, FolderSize: 100, Queued: 5, VideoSegments: 20);

    [Fact]
    [SlowTest("generates and measures libraries of several sizes")]
    public async Task A_small_run_reports_every_figure_for_each_size_and_leaves_nothing_behind()
    {
        var started = DateTime.UtcNow;
        var output = new StringWriter();
        var error = new StringWriter();
        var exitCode = await ScaleCommand.RunAsync(
            ["--jobs=120,240", "--folder-size=100", "--files-per-job=3", "--queued=5", "--segments=20", "--samples=3", "--ids-samples=1", "--json",
             "--server=" + Path.Combine(AppContext.BaseDirectory, "NzbDav.dll")],
            output, error, TestContext.Current.CancellationToken);

        Assert.True(exitCode == 0, error.ToString());
        var text = output.ToString();
        Assert.Contains("SCALE: HOW COST GROWS", text, StringComparison.Ordinal);
        using var document = JsonDocument.Parse(text.TrimEnd().Split('\n')[^1]);
        var json = document.RootElement;
        Assert.Equal("test-scale", json.GetProperty("command").GetString());
        var sizes = json.GetProperty("sizes").EnumerateArray().ToList();
        Assert.Equal([120, 240], sizes.Select(s => s.GetProperty("jobs").GetInt32()));
        foreach (var size in sizes)
        {
            var jobs = size.GetProperty("jobs").GetInt32();
            var failed = jobs / 100;
            var completed = jobs - failed - 5;
            Assert.Equal(completed, size.GetProperty("completed").GetInt32());
            Assert.Equal(5, size.GetProperty("queued").GetInt32());
            Assert.Equal(completed * 3L, size.GetProperty("files").GetInt64());
            Assert.Equal(100, size.GetProperty("bigFolderChildren").GetInt32());
            Assert.Equal(completed + failed, size.GetProperty("history").GetInt32());
            Assert.True(size.GetProperty("startMs").GetDouble() > 0);
            Assert.True(size.GetProperty("databaseBytes").GetInt64() > 100_000);
            Assert.True(size.GetProperty("rssBytes").GetInt64() > 10_000_000);
            foreach (var (key, _) in ScaleReport.Calls)
            {
                var call = size.GetProperty(key);
                Assert.Equal(key == ScaleCalls.PropfindIds ? 1 : 3, call.GetProperty("count").GetInt32());
                Assert.True(call.GetProperty("p50Ms").GetDouble() > 0, key);
                Assert.True(call.GetProperty("p99Ms").GetDouble() >= call.GetProperty("p50Ms").GetDouble(), key);
            }
        }

        var growth = Assert.Single(json.GetProperty("growth").EnumerateArray());
        Assert.Equal(2, growth.GetProperty("jobs").GetDouble());
        Assert.True(growth.GetProperty("databaseBytes").GetDouble() > 1);
        // Each size's data directory is deleted after it (only --keep leaves them).
        Assert.DoesNotContain(Directory.GetDirectories(Path.GetTempPath(), "nzbdav-scale-*"), d => Directory.GetCreationTimeUtc(d) >= started);
    }

    [Theory]
    [InlineData("--jobs=0", "--jobs must be a whole number from 10 to 10000000; got '0'.")]
    [InlineData("--jobs=1000,1000", "--jobs lists a size twice: '1000,1000'.")]
    [InlineData("--samples=none", "--samples must be a whole number from 1 to 100000; got 'none'.")]
    [InlineData("--folder-size", "--folder-size needs a value.")]
    [InlineData("--keep=yes", "--keep takes no value (got 'yes').")]
    [InlineData("--server=/nonexistent/NzbDav.dll", "--server: there is no file '/nonexistent/NzbDav.dll'.")]
    [InlineData("--size=5", "Unknown argument '--size=5'.")]
    public async Task Bad_arguments_exit_2_with_the_reason_and_the_usage(string argument, string reason)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var exitCode = await ScaleCommand.RunAsync([argument], output, error, TestContext.Current.CancellationToken);

        Assert.Equal(2, exitCode);
        Assert.Empty(output.ToString());
        Assert.Contains(reason, error.ToString(), StringComparison.Ordinal);
        Assert.Contains("Usage:", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_generated_library_is_what_webdav_the_sab_api_and_the_ui_show_with_paging()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var library = await ScaleLibrary.GenerateAsync(temp.Path, Small, ct);
        string[] categories = [.. ScaleLibrary.Categories(Small).Select((c, i) => $"--NzbDav:Categories:{i}={c}")];
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, extra: [.. categories, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + UiPassword]);

        // The biggest folder lists exactly the jobs generated into it, in name order.
        var expected = Enumerable.Range(0, Small.FolderSize).Select(i => "/content/tv/" + ScaleLibrary.JobName(i) + "/").ToList();
        var listing = await DavHttp.MultistatusAsync(server.Http, "/content/tv/", "1", null, ct);
        Assert.Equal(["/content/tv/", .. expected.Order(StringComparer.Ordinal)], listing.Keys.Order(StringComparer.Ordinal));
        var completed = await DavHttp.MultistatusAsync(server.Http, "/completed/tv/", "1", null, ct);
        Assert.Equal(Small.FolderSize + 1, completed.Count);
        var jobFolder = expected[7];
        var files = await DavHttp.MultistatusAsync(server.Http, jobFolder, "1", null, ct);
        Assert.Equal(Small.FilesPerJob + 1, files.Count);
        var video = files.Keys.Single(k => k.EndsWith(".mkv", StringComparison.Ordinal));
        Assert.True(long.Parse(DavHttp.OkProp(files[video], "getcontentlength")!.Value, System.Globalization.CultureInfo.InvariantCulture) >= 1_000_000_000);
        // A job entry of /completed is found by its name alone, with its links.
        var entry = await DavHttp.MultistatusAsync(server.Http, "/completed/tv/" + ScaleLibrary.JobName(7) + "/", "1", null, ct);
        Assert.Equal(Small.FilesPerJob + 1, entry.Count);
        var ids = await DavHttp.MultistatusAsync(server.Http, "/.ids/", "1", null, ct);
        Assert.Equal(library.Files + 1, ids.Count);
        var content = await DavHttp.MultistatusAsync(server.Http, "/content/", "1", null, ct);
        Assert.Contains("/content/movies/", content.Keys);

        // SABnzbd's history: the totals, Sonarr's category filter and paging.
        var all = await SabAsync(server, "mode=history&start=0&limit=60", ct);
        Assert.Equal(library.History, all.GetProperty("noofslots").GetInt32());
        var tv = await SabAsync(server, "mode=history&start=0&limit=60&category=tv", ct);
        Assert.Equal(library.HistoryJobs["tv"], tv.GetProperty("noofslots").GetInt32());
        Assert.All(tv.GetProperty("slots").EnumerateArray(), s => Assert.Equal("tv", s.GetProperty("category").GetString()));
        var pages = new List<string>();
        for (var start = 0; start < library.History; start += 60)
        {
            var page = await SabAsync(server, $"mode=history&start={start}&limit=60", ct);
            pages.AddRange(page.GetProperty("slots").EnumerateArray().Select(s => s.GetProperty("nzo_id").GetString()!));
        }

        Assert.Equal(library.History, pages.Distinct().Count());
        var queue = await SabAsync(server, "mode=queue&start=0&limit=0", ct);
        Assert.Equal(library.Queued, queue.GetProperty("queue").GetProperty("noofslots_total").GetInt32());

        // The UI's History page, page after page, newest first, and its Files page.
        using var ui = new UiClient(server.Address);
        await ui.LoginAsync("admin", UiPassword, ct);
        var seen = new List<string>();
        DateTimeOffset? previous = null;
        for (var number = 1; ; number++)
        {
            var page = await GetJsonAsync(ui, $"/ui/api/history?page={number}&pageSize=50&search=&status=all", ct);
            Assert.Equal(library.History, page.GetProperty("total").GetInt32());
            var jobs = page.GetProperty("jobs").EnumerateArray().ToList();
            if (jobs.Count == 0)
                break;
            foreach (var job in jobs)
            {
                var at = job.GetProperty("completedAt").GetDateTimeOffset();
                Assert.True(previous is null || at <= previous, "history is newest first");
                previous = at;
                seen.Add(job.GetProperty("id").GetString()!);
                if (job.GetProperty("status").GetString() == "Completed")
                    Assert.StartsWith("/content/", job.GetProperty("contentPath").GetString(), StringComparison.Ordinal);
            }
        }

        Assert.Equal(library.History, seen.Distinct().Count());
        var failed = await GetJsonAsync(ui, "/ui/api/history?page=1&pageSize=50&search=&status=failed", ct);
        Assert.Equal(library.Failed, failed.GetProperty("total").GetInt32());
        Assert.Equal(library.Failed, failed.GetProperty("jobs").GetArrayLength());
        var search = await GetJsonAsync(ui, "/ui/api/history?page=1&pageSize=50&search=" + Uri.EscapeDataString(ScaleLibrary.JobName(42)) + "&status=all", ct);
        Assert.Equal(1, search.GetProperty("total").GetInt32());
        var filesPage = await GetJsonAsync(ui, "/ui/api/files?path=/content/tv", ct);
        Assert.Equal(Small.FolderSize, filesPage.GetProperty("entries").GetArrayLength());
    }

    [Fact]
    public async Task A_library_cache_generates_once_and_gives_each_run_its_own_copy()
    {
        var ct = TestContext.Current.CancellationToken;
        using var cache = new TempDirectory();
        using var first = new TempDirectory();
        using var second = new TempDirectory();
        var spec = Small with { Jobs = 30, FolderSize = 10 };

        var (made, reusedFirst) = await ScaleLibraryCache.CopyAsync(cache.Path, first.Path, spec, ct);
        // What a server does to its copy (here: forgets every job) must not reach the cache.
        await using (var connection = new SqliteConnection($"Data Source={Path.Combine(first.Path, DataServiceCollectionExtensions.DatabaseFileName)};Pooling=False"))
        {
            await connection.OpenAsync(ct);
            await using var delete = connection.CreateCommand();
            delete.CommandText = "DELETE FROM FileHealth; DELETE FROM DavItems; DELETE FROM JobNzbs; DELETE FROM Jobs;";
            await delete.ExecuteNonQueryAsync(ct);
        }

        var (copied, reusedSecond) = await ScaleLibraryCache.CopyAsync(cache.Path, second.Path, spec, ct);

        Assert.False(reusedFirst);
        Assert.True(reusedSecond);
        Assert.Equal((made.Completed, made.Failed, made.Queued, made.Files, made.Directories, made.SampleJobFolder),
            (copied.Completed, copied.Failed, copied.Queued, copied.Files, copied.Directories, copied.SampleJobFolder));
        Assert.Equal(made.FolderJobs.OrderBy(p => p.Key, StringComparer.Ordinal), copied.FolderJobs.OrderBy(p => p.Key, StringComparer.Ordinal));
        Assert.Equal(made.HistoryJobs.OrderBy(p => p.Key, StringComparer.Ordinal), copied.HistoryJobs.OrderBy(p => p.Key, StringComparer.Ordinal));
        await using var copy = new SqliteConnection($"Data Source={Path.Combine(second.Path, DataServiceCollectionExtensions.DatabaseFileName)};Pooling=False");
        await copy.OpenAsync(ct);
        await using var count = copy.CreateCommand();
        count.CommandText = "SELECT (SELECT COUNT(*) FROM Jobs), (SELECT COUNT(*) FROM DavItems WHERE NOT IsDirectory)";
        await using var reader = await count.ExecuteReaderAsync(ct);
        Assert.True(await reader.ReadAsync(ct));
        Assert.Equal(spec.Jobs, reader.GetInt32(0));
        Assert.Equal(made.Files, reader.GetInt64(1));
    }

    [Fact]
    public async Task The_measured_queries_read_indexes_and_never_scan_the_big_tables()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await ScaleLibrary.GenerateAsync(temp.Path, Small with { Jobs = 30, FolderSize = 10 }, ct);
        var services = new ServiceCollection().AddNzbDavData(temp.Path).BuildServiceProvider();
        await using var _ = services;
        await using var context = await services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct);
        JobStatus[] history = JobCommands.HistoryStatuses;

        // A category's job folders (/content/tv/) from their index alone: no job row read per folder.
        var folders = DavTree.JobFolderListing(context.DavItems.AsNoTracking(), "tv");
        var plan = await PlanAsync(context, folders.ToQueryString(), ct);
        Assert.Contains("USING COVERING INDEX " + NzbDavDbContext.JobFoldersIndex, plan, StringComparison.Ordinal);
        Assert.DoesNotContain("Jobs", plan, StringComparison.Ordinal);
        Assert.DoesNotContain("TEMP B-TREE", plan, StringComparison.Ordinal);

        // A category's completed jobs (matched with its folders for /completed/tv/), from an index alone.
        var completed = DavTree.CompletedJobIds(context.Jobs.AsNoTracking(), "tv");
        plan = await PlanAsync(context, completed.ToQueryString(), ct);
        Assert.Contains("COVERING INDEX IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes_Id", plan, StringComparison.Ordinal);

        var page = context.JobsThrough(NzbDavDbContext.HistoryOrderIndex).AsNoTracking()
            .Where(j => history.Contains(j.Status) && !j.RemovedFromHistory)
            .OrderByDescending(j => j.CompletedAt).ThenByDescending(j => j.AddedAt).Skip(25).Take(25);
        plan = await PlanAsync(context, page.ToQueryString(), ct);
        Assert.Contains("INDEX " + NzbDavDbContext.HistoryOrderIndex, plan, StringComparison.Ordinal);
        Assert.DoesNotContain("TEMP B-TREE", plan, StringComparison.Ordinal);

        var sabHistory = context.Jobs.Where(j => history.Contains(j.Status) && !j.RemovedFromHistory && j.Category == "tv");
        plan = await PlanAsync(context, sabHistory.Select(j => j.TotalBytes).ToQueryString(), ct);
        Assert.Contains("COVERING INDEX IX_Jobs_Category_Status_RemovedFromHistory_TotalBytes_Id", plan, StringComparison.Ordinal);

        var count = context.Jobs.Where(j => history.Contains(j.Status) && !j.RemovedFromHistory).Select(j => j.Id);
        plan = await PlanAsync(context, "SELECT COUNT(*) FROM (" + StripParameters(count.ToQueryString()) + ")", ct);
        Assert.Contains("COVERING INDEX IX_Jobs_Status_RemovedFromHistory", plan, StringComparison.Ordinal);

        // A start resumes interrupted PAR2 repairs, and the Health page counts files needing action: through an index, not every file's row.
        var repairing = context.FileHealth.Where(h => h.Repair == RepairStatus.Repairing).Select(h => h.DavItemId);
        plan = await PlanAsync(context, repairing.ToQueryString(), ct);
        Assert.Contains("INDEX IX_FileHealth_Repair", plan, StringComparison.Ordinal);

        var children = context.DavItems.Where(i => i.ParentId == Guid.Empty).OrderBy(i => i.Path).Select(i => i.Id);
        plan = await PlanAsync(context, children.ToQueryString(), ct);
        Assert.Contains("INDEX IX_DavItems_ParentId", plan, StringComparison.Ordinal);
    }

    private static async Task<JsonElement> GetJsonAsync(UiClient ui, string path, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        using var response = await ui.SendAsync(request, ct);
        Assert.True(response.IsSuccessStatusCode, $"{path} answered {(int)response.StatusCode}");
        return await UiClient.ReadAsync(response, ct);
    }

    private static async Task<JsonElement> SabAsync(DavTestServer server, string query, CancellationToken ct)
    {
        using var response = await server.Anonymous.GetAsync($"/api?output=json&apikey={DavTestServer.ApiKey}&{query}", ct);
        var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement.Clone();
        return json.TryGetProperty("history", out var history) ? history : json;
    }

    /// <summary>EXPLAIN QUERY PLAN of EF's SQL (its parameters left unbound: a plan does not depend on their values here); fails on a full scan.</summary>
    private static async Task<string> PlanAsync(NzbDavDbContext context, string sql, CancellationToken ct)
    {
        var connection = (SqliteConnection)context.Database.GetDbConnection();
        await context.Database.OpenConnectionAsync(ct);
        await using var command = connection.CreateCommand();
        command.CommandText = "EXPLAIN QUERY PLAN " + StripParameters(sql);
        var lines = new List<string>();
        await using (var reader = await command.ExecuteReaderAsync(ct))
        {
            while (await reader.ReadAsync(ct))
                lines.Add(reader.GetString(3));
        }

        var plan = string.Join("\n", lines);
        Assert.DoesNotContain("SCAN DavItems", plan.Replace(" AS ", " ", StringComparison.Ordinal), StringComparison.Ordinal);
        Assert.False(lines.Any(l => l.StartsWith("SCAN ", StringComparison.Ordinal) && !l.Contains("INDEX", StringComparison.Ordinal)), plan);
        return plan;
    }

    private static string StripParameters(string sql) =>
        string.Join("\n", sql.Split('\n').Where(l => !l.StartsWith(".param", StringComparison.Ordinal)));
}
