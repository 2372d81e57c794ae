using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Configuration;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebDav;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// The Settings page's API over real sockets: settings stored in the database and in effect at once,
/// the configuration layers (files below, command line above), and providers and caps changed from
/// the UI while players read, with two mock providers holding the same articles.
/// </summary>
public sealed class UiSettingsTests
{
    private const string Admin = "correct horse battery";

    [Fact]
    public async Task Settings_apply_at_once_persist_and_keep_the_layers_order()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await File.WriteAllTextAsync(RuntimeSettings.PathIn(data.Path), """{ "NzbDav": { "MaxNzbBytes": 123456, "Categories": [ "tv", "movies", "audio" ] } }""", ct);
        string[] args = ["--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin, "--Streaming:ConnectionsPerStream=7"];
        await using (var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, args))
        {
            using var ui = new UiClient(server.Http.BaseAddress!);
            await ui.LoginAsync("admin", Admin, ct);
            var options = server.Services.GetRequiredService<IOptionsMonitor<NzbDavOptions>>();

            var view = await GetAsync(ui, ct);
            Assert.Equal(("123456", "settings.json", false), Field(view, "NzbDav:MaxNzbBytes"));
            Assert.Equal(("7", "command line", true), Field(view, "Streaming:ConnectionsPerStream"));
            Assert.Equal(("64", "default", false), Field(view, "NzbDav:Queue:ArticleConcurrency"));

            // Above the file: in effect as soon as the call returns.
            view = await SaveAsync(ui, new() { ["NzbDav:MaxNzbBytes"] = "5000000", ["NzbDav:Categories"] = " tv ,anime" }, ct);
            Assert.Equal(("5000000", "web UI", false), Field(view, "NzbDav:MaxNzbBytes"));
            Assert.Equal(5_000_000, options.CurrentValue.MaxNzbBytes);
            // The file's longer list does not show through the shorter one.
            Assert.Equal(["tv", "anime"], options.CurrentValue.EffectiveCategories);
            var cats = await server.GetAsync("mode=get_cats&apikey=" + TestServer.ApiKey, ct);
            Assert.Equal(["*", "tv", "anime"], cats.GetProperty("categories").EnumerateArray().Select(c => c.GetString()));

            // Below the command line: refused, saying where it is set; nothing else of the call is saved.
            await AssertRefusedAsync(ui, new() { ["NzbDav:Queue:ArticleConcurrency"] = "32", ["Streaming:ConnectionsPerStream"] = "9" }, HttpStatusCode.Conflict, "command line", ct);
            Assert.Equal(64, options.CurrentValue.Queue.ArticleConcurrency);
            // Bad values name the setting and the rule.
            await AssertRefusedAsync(ui, new() { ["NzbDav:Queue:MaxConcurrentJobs"] = "0" }, HttpStatusCode.BadRequest, "Jobs at once must be between 1 and 16", ct);
            await AssertRefusedAsync(ui, new() { ["NzbDav:DuplicateNzbPolicy"] = "Maybe" }, HttpStatusCode.BadRequest, "NewJob, Refuse", ct);
            await AssertRefusedAsync(ui, new() { ["NzbDav:MountPath"] = "relative/path" }, HttpStatusCode.BadRequest, "absolute path", ct);
            await AssertRefusedAsync(ui, new() { ["NzbDav:Categories"] = "tv, ../etc" }, HttpStatusCode.BadRequest, "not a usable name", ct);
            await AssertRefusedAsync(ui, new() { ["NzbDav:DataDirectory"] = "/tmp" }, HttpStatusCode.BadRequest, "not a setting the UI changes", ct);
            await AssertRefusedAsync(ui, new() { ["Streaming:MaxReadAheadBytes"] = "999999999999" }, HttpStatusCode.BadRequest, "Read-ahead limit must be between", ct);
            // Sizes are typed in units, stored as bytes, and their limits are worded in units.
            view = await SaveAsync(ui, new() { ["Streaming:StartReadAheadBytes"] = "64MB", ["Streaming:MemoryBudgetBytes"] = "1.5 GiB" }, ct);
            Assert.Equal(("67108864", "web UI", false), Field(view, "Streaming:StartReadAheadBytes"));
            Assert.Equal(("1610612736", "web UI", false), Field(view, "Streaming:MemoryBudgetBytes"));
            await AssertRefusedAsync(ui, new() { ["Streaming:StartReadAheadBytes"] = "abc" }, HttpStatusCode.BadRequest, "Read-ahead at start: 'abc' is not a size; write bytes or a number with a unit, e.g. 64 MiB", ct);
            await AssertRefusedAsync(ui, new() { ["NzbDav:MaxNzbBytes"] = "12" }, HttpStatusCode.BadRequest, "Largest NZB must be between 1 KiB and 1 GiB; 12 B is not.", ct);
            await AssertRefusedAsync(ui, new() { ["Streaming:MemoryBudgetBytes"] = "2 TB", ["NzbDav:MaxNzbBytes"] = "2 MiB" }, HttpStatusCode.BadRequest, "Memory budget must be between 32 MiB and 64 GiB; 2 TiB is not.", ct);
            // Nothing of a refused call is half-saved.
            Assert.Equal(5_000_000, options.CurrentValue.MaxNzbBytes);
            // The managed mount's main flags, in rclone's own units.
            await AssertRefusedAsync(ui, new() { ["Mount:VfsCacheMaxSize"] = "lots" }, HttpStatusCode.BadRequest, "VFS cache size must be a size in rclone's units", ct);
            await AssertRefusedAsync(ui, new() { ["Mount:DirCacheTime"] = "soon" }, HttpStatusCode.BadRequest, "Directory cache time must be a duration in rclone's units", ct);
            // A paste gone wrong: too long for any setting, refused with the limit and the length.
            await AssertRefusedAsync(ui, new() { ["NzbDav:WebDav:PublicUrl"] = "https://example.com/" + new string('a', 2000) }, HttpStatusCode.BadRequest,
                "Public URL can have at most 1,024 characters; this has 2,020.", ct);
            await AssertRefusedAsync(ui, new() { ["NzbDav:Queue:MaxConcurrentJobs"] = "4x" }, HttpStatusCode.BadRequest, "Jobs at once must be a whole number; '4x' is not.", ct);
            await AssertRefusedAsync(ui, new() { ["Mount:VfsCacheMode"] = "sometimes" }, HttpStatusCode.BadRequest, "off, minimal, writes, full", ct);
            view = await SaveAsync(ui, new() { ["Mount:VfsCacheMaxSize"] = "1G", ["Mount:DirCacheTime"] = "1h30m", ["Mount:VfsCacheMode"] = "Writes" }, ct);
            Assert.Equal(("1G", "web UI", false), Field(view, "Mount:VfsCacheMaxSize"));
            Assert.Equal(("writes", "web UI", false), Field(view, "Mount:VfsCacheMode"));
            var mount = server.Services.GetRequiredService<IOptionsMonitor<NzbDav.Server.Mount.MountOptions>>().CurrentValue;
            Assert.Equal(("1G", "1h30m", "writes"), (mount.VfsCacheMaxSize, mount.DirCacheTime, mount.VfsCacheMode));
            Assert.Equal(("false", "default", false), Field(view, "Mount:Enabled"));

            // Nullable: empty is "automatic"; a value of its own, then reset.
            view = await SaveAsync(ui, new() { ["Streaming:MaxReadAheadBytes"] = "8388608", ["NzbDav:Queue:MaxConcurrentJobs"] = "3" }, ct);
            Assert.Equal(("8388608", "web UI", false), Field(view, "Streaming:MaxReadAheadBytes"));
            Assert.Equal(8_388_608, server.Services.GetRequiredService<IOptionsMonitor<NzbDav.Streaming.StreamingOptions>>().CurrentValue.MaxReadAheadBytes);
            view = await SaveAsync(ui, new() { ["Streaming:MaxReadAheadBytes"] = "" }, ct);
            Assert.Equal((null, "web UI", false), Field(view, "Streaming:MaxReadAheadBytes"));
            Assert.Null(server.Services.GetRequiredService<IOptionsMonitor<NzbDav.Streaming.StreamingOptions>>().CurrentValue.MaxReadAheadBytes);
        }

        // Stored: a restart on the same data directory has them before anything else runs.
        await using (var again = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, args))
        {
            var options = again.Services.GetRequiredService<IOptionsMonitor<NzbDavOptions>>().CurrentValue;
            Assert.Equal(5_000_000, options.MaxNzbBytes);
            Assert.Equal(3, options.Queue.MaxConcurrentJobs);
            Assert.Equal(["tv", "anime"], options.EffectiveCategories);

            using var ui = new UiClient(again.Http.BaseAddress!);
            await ui.LoginAsync("admin", Admin, ct);
            // Dropping the UI's value brings the file's back.
            var view = await SaveAsync(ui, new() { ["NzbDav:MaxNzbBytes"] = null, ["NzbDav:Categories"] = null }, ct);
            Assert.Equal(("123456", "settings.json", false), Field(view, "NzbDav:MaxNzbBytes"));
            Assert.Equal(["tv", "movies", "audio"], again.Services.GetRequiredService<IOptionsMonitor<NzbDavOptions>>().CurrentValue.EffectiveCategories);
        }
    }

    [Fact]
    public async Task Api_key_and_webdav_account_change_at_once()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        // No configured API key or WebDAV password: both are the stored ones the UI may replace.
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct,
            "--NzbDav:ApiKey=", "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        var oldKey = (await GetAsync(ui, ct)).GetProperty("sab").GetProperty("apiKey").GetString()!;
        Assert.Equal(32, oldKey.Length);
        Assert.True(await SabAcceptsAsync(server, oldKey, ct));

        var newKey = (await ReadOkAsync(await ui.PostAsync("/ui/api/settings/api-key", new { }, ct), ct)).GetProperty("apiKey").GetString()!;
        Assert.NotEqual(oldKey, newKey);
        Assert.False(await SabAcceptsAsync(server, oldKey, ct));
        Assert.True(await SabAcceptsAsync(server, newKey, ct));

        // WebDAV: a short password is refused; a new account works at once and the old one does not.
        var refused = await ui.PostAsync("/ui/api/settings/webdav", new { user = "plex", password = "short" }, ct);
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("at least 8", (await UiClient.ReadAsync(refused, ct)).GetProperty("error").GetString());
        var view = await ReadOkAsync(await ui.PostAsync("/ui/api/settings/webdav", new { user = "plex", password = "long enough secret" }, ct), ct);
        Assert.Equal("plex", view.GetProperty("webDav").GetProperty("user").GetString());
        Assert.Equal(HttpStatusCode.MultiStatus, await PropfindAsync(server, "plex", "long enough secret", ct));
        Assert.Equal(HttpStatusCode.Unauthorized, await PropfindAsync(server, "admin", "long enough secret", ct));
        // Renaming keeps the password.
        await ReadOkAsync(await ui.PostAsync("/ui/api/settings/webdav", new { user = "jellyfin", password = "" }, ct), ct);
        Assert.Equal(HttpStatusCode.MultiStatus, await PropfindAsync(server, "jellyfin", "long enough secret", ct));
        Assert.Equal(HttpStatusCode.Unauthorized, await PropfindAsync(server, "plex", "long enough secret", ct));
    }

    [Fact]
    public async Task Providers_changed_from_the_ui_while_players_read_keep_every_byte_and_every_cap()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        // Two providers of one post: same seed, token and file, so they hold the same articles.
        await using var a = new MockNntpServer(new MockNntpOptions { Seed = 5, MessageIdToken = "ui-settings", User = "reader", Password = "provider-secret" });
        await using var b = new MockNntpServer(new MockNntpOptions { Seed = 5, MessageIdToken = "ui-settings", User = "reader", Password = "provider-secret" });
        var video = a.Store.AddGeneratedFile("Show.S01E01.mkv", 3L * 1024 * 1024 + 17, 32 * 1024);
        b.Store.AddGeneratedFile("Show.S01E01.mkv", 3L * 1024 * 1024 + 17, 32 * 1024);
        a.Behavior.Latency = b.Behavior.Latency = TimeSpan.FromMilliseconds(3);
        await a.StartAsync(ct);
        await b.StartAsync(ct);
        await using var host = await IngestionHost.StartAsync(data.Path, null, new LogCapture(), ct,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);
        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        var client = host.Server.Services.GetRequiredService<UsenetClient>();
        var limiter = host.Server.Services.GetRequiredService<GlobalOperationLimiter>();

        // A provider that cannot be reached is not saved unless the user insists.
        var unreachable = await ui.PostAsync("/ui/api/settings/providers", Provider("a", ClosedPort(), 2), ct);
        Assert.Equal(HttpStatusCode.UnprocessableEntity, unreachable.StatusCode);
        var failed = await UiClient.ReadAsync(unreachable, ct);
        Assert.Contains("connect failed", failed.GetProperty("error").GetString());
        Assert.False(failed.GetProperty("test").GetProperty("ok").GetBoolean());
        Assert.Empty((await GetAsync(ui, ct)).GetProperty("providers").EnumerateArray());

        var view = await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers", Provider("a", a.Port, 2), ct), ct);
        var saved = Assert.Single(view.GetProperty("providers").EnumerateArray());
        Assert.True(saved.GetProperty("editable").GetBoolean());
        Assert.Equal("web UI", saved.GetProperty("source").GetString());
        Assert.Equal(1, client.ProviderCount);

        var job = await host.AddAndWaitAsync(Nzb(a), "Show.S01E01.nzb", ct);
        Assert.Equal("Completed", job.GetProperty("status").GetString());
        var folder = job.GetProperty("name").GetString()!;

        await using var players = new Players(host, folder, video, count: 3);
        await players.WaitForReadsAsync(3, ct);

        // Raising the cap wakes the streams waiting for a connection: the provider sees more sessions at once.
        await WaitUntilAsync(() => a.Stats.CurrentConnections == 2, ct);
        await EditAsync(ui, "a", Provider("a", a.Port, 6), ct);
        Assert.Equal(6, limiter.Options.TotalConnections);
        await WaitUntilAsync(() => a.Stats.CurrentConnections > 2, ct);

        // Lowering it: once the sessions above the new cap have finished, the provider never sees more.
        await EditAsync(ui, "a", Provider("a", a.Port, 1), ct);
        await WaitUntilAsync(() => a.Stats.CurrentConnections <= 1, ct);
        a.MaxConnections = 1;
        await players.WaitForReadsAsync(players.Reads + 6, ct);
        Assert.Equal(0, a.Stats.RejectedConnections);
        a.MaxConnections = null;

        // An edit that leaves streaming less than half the budget is refused with the reason.
        await EditAsync(ui, "a", Provider("a", a.Port, 4), ct);
        await AssertRefusedAsync(ui, new() { ["Usenet:Limiter:QueueGuarantee"] = "3" }, HttpStatusCode.BadRequest, "so streaming keeps at least half", ct);
        await SaveAsync(ui, new() { ["Usenet:Limiter:QueueGuarantee"] = "2" }, ct);
        Assert.Equal(2, limiter.Options.QueueGuarantee);
        var lowered = await ui.PostAsync("/ui/api/settings/providers/a", Provider("a", a.Port, 3), ct);
        Assert.Equal(HttpStatusCode.BadRequest, lowered.StatusCode);
        Assert.Contains("so streaming keeps at least half", (await UiClient.ReadAsync(lowered, ct)).GetProperty("error").GetString());
        Assert.Equal(4, limiter.Options.TotalConnections);

        // A second provider, then the first disabled: the players go on from the second without an error.
        await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers", Provider("b", b.Port, 4, priority: 1), ct), ct);
        await EditAsync(ui, "a", Provider("a", a.Port, 4, enabled: false), ct);
        await WaitUntilAsync(() => a.Stats.CurrentConnections == 0, ct);
        var fromB = b.Stats.CommandsReceived;
        // The players' random reads are short, so the segment cache keeps them: forget them, so
        // reading on must fetch, now from the second provider.
        host.Server.Services.GetRequiredService<NzbDav.Streaming.NzbFileStreamFactory>().Cache.Clear();
        await players.WaitForReadsAsync(players.Reads + 6, ct);
        await WaitUntilAsync(() => b.Stats.CommandsReceived > fromB, ct);

        // Enabled again, and the second deleted: back to the first, still without an error.
        await EditAsync(ui, "a", Provider("a", a.Port, 4), ct);
        view = await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers/b/delete", new { }, ct), ct);
        Assert.Equal(["a"], view.GetProperty("providers").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        await WaitUntilAsync(() => b.Stats.CurrentConnections == 0, ct);
        await players.WaitForReadsAsync(players.Reads + 6, ct);

        await players.StopAsync();
        Assert.Empty(players.Errors);
        Assert.Equal(404, (int)(await ui.PostAsync("/ui/api/settings/providers/b/delete", new { }, ct)).StatusCode);
        // The password is write-only: never in what the UI reads.
        Assert.DoesNotContain("provider-secret", (await GetAsync(ui, ct)).GetRawText());
    }

    [Fact]
    public async Task A_pool_share_raised_from_the_ui_wakes_its_waiters_and_a_lowered_one_admits_no_more()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer(new MockNntpOptions { User = "reader", Password = "provider-secret" });
        await nntp.StartAsync(ct);
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers", Provider("mock", nntp.Port, 8), ct), ct);
        var limiter = server.Services.GetRequiredService<GlobalOperationLimiter>();
        await SaveAsync(ui, new() { ["Usenet:Limiter:QueueMaximum"] = "1" }, ct);

        // Ingestion holds its one connection; a second caller waits.
        var first = await limiter.AcquireAsync(OperationKind.Queue, ct);
        var second = limiter.AcquireAsync(OperationKind.Queue, ct).AsTask();
        await WaitUntilAsync(() => limiter.HasWaiters(OperationKind.Queue), ct);
        Assert.False(second.IsCompleted);

        // Raised from the UI: the waiter gets its connection at once, nobody releasing anything.
        var view = await SaveAsync(ui, new() { ["Usenet:Limiter:QueueMaximum"] = "3" }, ct);
        using var granted = await second.WaitAsync(TimeSpan.FromSeconds(10), ct);
        Assert.Equal(2, limiter.GetStats().QueueInUse);
        Assert.Equal(3, view.GetProperty("budget").GetProperty("pools").EnumerateArray().Single(p => p.GetProperty("name").GetString() == "queue").GetProperty("maximum").GetInt32());

        // Lowered back to 1 with two held: a third caller waits, and still waits after one is
        // returned (two held was over the new maximum); it gets one only when the queue is under it.
        await SaveAsync(ui, new() { ["Usenet:Limiter:QueueMaximum"] = "1" }, ct);
        var third = limiter.AcquireAsync(OperationKind.Queue, ct).AsTask();
        await WaitUntilAsync(() => limiter.HasWaiters(OperationKind.Queue), ct);
        granted.Dispose();
        Assert.Equal(1, limiter.GetStats().QueueInUse);
        Assert.True(limiter.HasWaiters(OperationKind.Queue));
        Assert.False(third.IsCompleted);
        first.Dispose();
        using var last = await third.WaitAsync(TimeSpan.FromSeconds(10), ct);
        Assert.Equal(1, limiter.GetStats().QueueInUse);
    }

    private static object Provider(string name, int port, int maxConnections, bool enabled = true, int priority = 0) => new
    {
        name, host = "127.0.0.1", port, useTls = false, user = "reader", password = "provider-secret", maxConnections, role = "Primary", priority, pipelineDepth = 2, enabled,
    };

    private static async Task EditAsync(UiClient ui, string name, object provider, CancellationToken ct) =>
        await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers/" + name, provider, ct), ct);

    private static int ClosedPort()
    {
        using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static (string? Value, string Source, bool Locked) Field(JsonElement view, string key)
    {
        var field = view.GetProperty("settings").EnumerateArray().Single(s => s.GetProperty("key").GetString() == key);
        return (field.GetProperty("value").GetString(), field.GetProperty("source").GetString()!, field.GetProperty("locked").GetBoolean());
    }

    private static async Task<JsonElement> GetAsync(UiClient ui, CancellationToken ct) => await UiJobsTests.GetAsync(ui, "/ui/api/settings", ct);

    private static async Task<JsonElement> SaveAsync(UiClient ui, Dictionary<string, string?> values, CancellationToken ct) =>
        await ReadOkAsync(await ui.PostAsync("/ui/api/settings", new { values }, ct), ct);

    private static async Task AssertRefusedAsync(UiClient ui, Dictionary<string, string?> values, HttpStatusCode status, string reason, CancellationToken ct)
    {
        using var response = await ui.PostAsync("/ui/api/settings", new { values }, ct);
        var body = await UiClient.ReadAsync(response, ct);
        Assert.True(status == response.StatusCode, $"{response.StatusCode}: {body}");
        Assert.Contains(reason, body.GetProperty("error").GetString());
    }

    private static async Task<JsonElement> ReadOkAsync(HttpResponseMessage response, CancellationToken ct)
    {
        using (response)
        {
            var text = await response.Content.ReadAsStringAsync(ct);
            Assert.True(response.IsSuccessStatusCode, $"{(int)response.StatusCode}: {text}");
            return JsonDocument.Parse(text).RootElement.Clone();
        }
    }

    /// <summary>Like SABnzbd, a wrong key is answered 200 with an error text.</summary>
    private static async Task<bool> SabAcceptsAsync(TestServer server, string key, CancellationToken ct)
    {
        using var response = await server.Http.GetAsync("/api?mode=queue&output=json&apikey=" + key, ct);
        var text = await response.Content.ReadAsStringAsync(ct);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return !text.Contains("API Key Incorrect", StringComparison.Ordinal);
    }

    private static async Task<HttpStatusCode> PropfindAsync(TestServer server, string user, string password, CancellationToken ct)
    {
        using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), "/");
        request.Headers.Add("Depth", "0");
        request.Headers.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Basic", Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes(user + ":" + password)));
        using var response = await server.Http.SendAsync(request, ct);
        return response.StatusCode;
    }

    private static byte[] Nzb(MockNntpServer nntp)
    {
        using var stream = new MemoryStream();
        MockNzbWriter.Write(stream, nntp.Store.Files, "Show.S01E01", DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        return stream.ToArray();
    }

    /// <summary>Readers that fetch ranges of the file in a loop, as players seeking about, and check every byte.</summary>
    private sealed class Players : IAsyncDisposable
    {
        private readonly CancellationTokenSource _stop = new();
        private readonly Task[] _tasks;
        private int _reads;

        public Players(IngestionHost host, string folder, MockFile video, int count)
        {
            _tasks = Enumerable.Range(0, count).Select(i => Task.Run(() => PlayAsync(host, folder, video, i))).ToArray();
        }

        public int Reads => Volatile.Read(ref _reads);

        public ConcurrentQueue<string> Errors { get; } = new();

        public async Task WaitForReadsAsync(int reads, CancellationToken ct)
        {
            await WaitUntilAsync(() => Reads >= reads || !Errors.IsEmpty, ct);
            Assert.Empty(Errors);
        }

        public async Task StopAsync()
        {
            await _stop.CancelAsync();
            await Task.WhenAll(_tasks);
        }

        public async ValueTask DisposeAsync()
        {
            await StopAsync();
            _stop.Dispose();
        }

        private async Task PlayAsync(IngestionHost host, string folder, MockFile video, int seed)
        {
            var random = new Random(seed);
            const int length = 768 * 1024;
            while (!_stop.IsCancellationRequested)
            {
                var offset = random.NextInt64(0, video.Size - length);
                try
                {
                    using var response = await host.GetAsync(folder, video.Name, _stop.Token, $"bytes={offset}-{offset + length - 1}");
                    var body = await response.Content.ReadAsByteArrayAsync(_stop.Token);
                    if ((int)response.StatusCode != 206 || !body.AsSpan().SequenceEqual(video.ReadExpected(offset, length)))
                    {
                        Errors.Enqueue($"read at {offset}: {(int)response.StatusCode}, {body.Length} bytes, equal={body.AsSpan().SequenceEqual(video.ReadExpected(offset, length))}");
                    }

                    Interlocked.Increment(ref _reads);
                }
                catch (OperationCanceledException) when (_stop.IsCancellationRequested)
                {
                    return;
                }
                catch (HttpRequestException error)
                {
                    Errors.Enqueue($"read at {offset}: {error.Message}");
                }
            }
        }
    }
}
