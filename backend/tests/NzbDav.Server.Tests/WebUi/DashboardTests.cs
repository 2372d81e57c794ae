using System.Text.Json;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>What the live dashboard says about a stream being played and the provider behind it, over real sockets.</summary>
public sealed class DashboardTests
{
    private const string Admin = "correct horse battery";

    /// <summary>Submits every file of the mock as one NZB and waits for the job; returns its folder name.</summary>
    private static async Task<string> AddJobAsync(IngestionHost host, MockNntpServer nntp, string name, CancellationToken ct)
    {
        using var written = new MemoryStream();
        MockNzbWriter.Write(written, nntp.Store.Files, name, DateTimeOffset.FromUnixTimeSeconds(1_700_000_000));
        return (await host.AddAndWaitAsync(written.ToArray(), name + ".nzb", ct)).GetProperty("name").GetString()!;
    }

    /// <summary>The next frame of the live feed (Server-Sent Events, one JSON object per <c>data:</c> line) that <paramref name="wanted"/> accepts.</summary>
    private static async Task<JsonElement> NextLiveFrameAsync(StreamReader lines, Func<JsonElement, bool> wanted, CancellationToken cancellationToken)
    {
        while (await lines.ReadLineAsync(cancellationToken) is { } line)
        {
            if (!line.StartsWith("data: ", StringComparison.Ordinal))
                continue;
            var frame = JsonDocument.Parse(line["data: ".Length..]).RootElement.Clone();
            if (wanted(frame))
                return frame;
        }

        throw new EndOfStreamException("The live feed ended.");
    }

    [Fact]
    public async Task A_playing_stream_shows_its_read_ahead_and_the_provider_its_latency()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer();
        var video = nntp.Store.AddGeneratedFile("Show.S01E01.mkv", 24L * 1024 * 1024, 256 * 1024);
        await nntp.StartAsync(ct);
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, null,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin, "--NzbDav:Ui:LiveInterval=00:00:00.100");
        var folder = await AddJobAsync(host, nntp, "Show.S01E01", ct);
        // From now on every article takes 200 ms to its status line: fetching spans several ticks.
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(200);

        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(TimeSpan.FromSeconds(30));
        using var live = new HttpRequestMessage(HttpMethod.Get, "/ui/api/live");
        using var feed = await ui.SendHeadersAsync(live, deadline.Token);
        using var lines = new StreamReader(await feed.Content.ReadAsStreamAsync(deadline.Token));

        // A player that reads the start and then holds on (paused): the stream stays open with bytes fetched ahead.
        using var request = new HttpRequestMessage(HttpMethod.Get, "/content/tv/" + Uri.EscapeDataString(folder) + "/" + Uri.EscapeDataString(video.Name));
        using var playing = await host.Dav.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct);
        await using var body = await playing.Content.ReadAsStreamAsync(ct);
        var start = new byte[64 * 1024];
        await body.ReadExactlyAsync(start, ct);
        Assert.Equal(video.ReadExpected(0, start.Length), start);

        JsonElement? stream = null;
        double? latency = null;
        while (await lines.ReadLineAsync(deadline.Token) is { } line)
        {
            if (!line.StartsWith("data: ", StringComparison.Ordinal))
                continue;
            var frame = JsonDocument.Parse(line["data: ".Length..]).RootElement.Clone();
            // The latency of a tick in which answers came (the read-ahead fills early, then the player holds).
            if (frame.GetProperty("providers").EnumerateArray().Single().GetProperty("latencyMs") is { ValueKind: JsonValueKind.Number } ms)
                latency = ms.GetDouble();
            var playingNow = frame.GetProperty("streams").EnumerateArray().FirstOrDefault(s => s.GetProperty("path").GetString()!.EndsWith(video.Name, StringComparison.Ordinal));
            if (playingNow.ValueKind == JsonValueKind.Object && playingNow.GetProperty("readAheadBytes") is { ValueKind: JsonValueKind.Number } held && held.GetInt64() > 0)
                stream = playingNow;
            if (stream is not null && latency is not null)
                break;
            if (stream is not null)
            {
                // Read-ahead is full and no answer came this tick: play on a little so more is fetched.
                var more = new byte[1024 * 1024];
                await body.ReadExactlyAsync(more, deadline.Token);
            }
        }

        Assert.NotNull(stream);
        // Held ahead: more than nothing, never more than the file beyond what was sent.
        var ahead = stream.Value.GetProperty("readAheadBytes").GetInt64();
        Assert.InRange(ahead, 1, video.Size);
        Assert.Equal("127.0.0.1", stream.Value.GetProperty("client").GetString());
        // The mean time to the status line of the tick's answers: the provider's 200 ms, less the
        // fraction of a millisecond between the mock reading the command (its delay starts) and our
        // clock starting once the send returns (CI measured 199.9).
        Assert.InRange(latency!.Value, 195, 5_000);
    }

    [Fact]
    public async Task A_playing_stream_shows_what_it_fetched_and_a_second_read_of_the_same_range_hits_the_cache()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer();
        var video = nntp.Store.AddGeneratedFile("Show.S01E02.mkv", 16L * 1024 * 1024, 256 * 1024);
        await nntp.StartAsync(ct);
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, null,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin, "--NzbDav:Ui:LiveInterval=00:00:00.100");
        var folder = await AddJobAsync(host, nntp, "Show.S01E02", ct);
        var address = "/content/tv/" + Uri.EscapeDataString(folder) + "/" + Uri.EscapeDataString(video.Name);
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(20);

        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(TimeSpan.FromSeconds(30));
        using var live = new HttpRequestMessage(HttpMethod.Get, "/ui/api/live");
        using var feed = await ui.SendHeadersAsync(live, deadline.Token);
        using var lines = new StreamReader(await feed.Content.ReadAsStreamAsync(deadline.Token));

        Task<JsonElement> NextFrameAsync(Func<JsonElement, bool> wanted) => NextLiveFrameAsync(lines, wanted, deadline.Token);

        static JsonElement? Playing(JsonElement frame, string name) =>
            frame.GetProperty("streams").EnumerateArray().Where(s => s.GetProperty("path").GetString()!.EndsWith(name, StringComparison.Ordinal)).Cast<JsonElement?>().FirstOrDefault();

        // A player reads the start and holds on: the stream is open, with what it fetched so far.
        JsonElement frame;
        JsonElement stream;
        using (var request = new HttpRequestMessage(HttpMethod.Get, address))
        {
            using var playing = await host.Dav.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct);
            await using var body = await playing.Content.ReadAsStreamAsync(ct);
            var start = new byte[256 * 1024];
            await body.ReadExactlyAsync(start, ct);
            Assert.Equal(video.ReadExpected(0, start.Length), start);

            frame = await NextFrameAsync(f => Playing(f, video.Name) is { } s
                && s.GetProperty("sentBytes").GetInt64() >= start.Length
                && s.GetProperty("fetchedBytes").GetInt64() > 0
                && f.GetProperty("economy").GetProperty("readAheadBytes").GetInt64() > 0);
            stream = Playing(frame, video.Name)!.Value;
        }

        var sent = stream.GetProperty("sentBytes").GetInt64();
        var fetched = stream.GetProperty("fetchedBytes").GetInt64();
        Assert.InRange(fetched, 1, video.Size * 2);
        Assert.InRange(stream.GetProperty("sharedBytes").GetInt64(), 0, video.Size);
        // The ratio is what the two counters say, to three decimals.
        Assert.Equal(Math.Round((double)fetched / sent, 3), stream.GetProperty("fetchedPerSent").GetDouble(), 3);

        var economy = frame.GetProperty("economy");
        Assert.InRange(economy.GetProperty("servedBytes").GetInt64(), sent, long.MaxValue);
        // The total counts an article when its fetch ends; the stream's own counter as bytes arrive.
        Assert.True(economy.GetProperty("fetchedBytes").GetInt64() > 0);
        Assert.True(economy.GetProperty("fetchedPerServed").GetDouble() > 0);
        Assert.True(economy.GetProperty("cacheMisses").GetInt64() > 0);
        Assert.InRange(economy.GetProperty("cacheHitRate").GetDouble(), 0, 1);
        Assert.InRange(economy.GetProperty("readAheadBytes").GetInt64(), 1, economy.GetProperty("readAheadLimitBytes").GetInt64());
        Assert.True(economy.GetProperty("readAheadStreams").GetInt32() >= 1);

        // The player stopped; the cache keeps the first segments (what a probe reads).
        // Once the closed stream's fetches have all ended, the total holds everything it fetched.
        frame = await NextFrameAsync(f => Playing(f, video.Name) is null
            && f.GetProperty("economy").GetProperty("fetchedBytes").GetInt64() >= fetched);
        var hitsBefore = frame.GetProperty("economy").GetProperty("cacheHits").GetInt64();
        Assert.True(frame.GetProperty("economy").GetProperty("cacheBytes").GetInt64() > 0);

        // A second read of the same small range: served from the cache, not fetched again.
        using (var again = new HttpRequestMessage(HttpMethod.Get, address))
        {
            again.Headers.Range = new System.Net.Http.Headers.RangeHeaderValue(0, 65_535);
            using var response = await host.Dav.SendAsync(again, ct);
            Assert.Equal(System.Net.HttpStatusCode.PartialContent, response.StatusCode);
            Assert.Equal(video.ReadExpected(0, 65_536), await response.Content.ReadAsByteArrayAsync(ct));
        }

        frame = await NextFrameAsync(f => f.GetProperty("economy").GetProperty("cacheHits").GetInt64() > hitsBefore);
        economy = frame.GetProperty("economy");
        Assert.True(economy.GetProperty("cacheHitBytes").GetInt64() > 0);
        Assert.InRange(economy.GetProperty("cacheHitRate").GetDouble(), double.Epsilon, 1);
    }

    [Fact]
    public async Task A_provider_that_goes_down_shows_down_with_its_last_error_and_since_when_then_ok_again()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer();
        var video = nntp.Store.AddGeneratedFile("Show.S01E03.mkv", 8L * 1024 * 1024, 256 * 1024);
        await nntp.StartAsync(ct);
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, null,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin, "--NzbDav:Ui:LiveInterval=00:00:00.100",
            "--Usenet:BreakerFailureThreshold=2", "--Usenet:BreakerCooldown=00:00:01", "--Streaming:SegmentCacheBytes=0");
        var folder = await AddJobAsync(host, nntp, "Show.S01E03", ct);
        var address = "/content/tv/" + Uri.EscapeDataString(folder) + "/" + Uri.EscapeDataString(video.Name);

        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(TimeSpan.FromSeconds(60));
        using var live = new HttpRequestMessage(HttpMethod.Get, "/ui/api/live");
        using var feed = await ui.SendHeadersAsync(live, deadline.Token);
        using var lines = new StreamReader(await feed.Content.ReadAsStreamAsync(deadline.Token));

        async Task<JsonElement> NextProviderAsync(Func<JsonElement, bool> wanted) =>
            (await NextLiveFrameAsync(lines, f => wanted(f.GetProperty("providers").EnumerateArray().Single()), deadline.Token))
                .GetProperty("providers").EnumerateArray().Single();

        async Task<System.Net.HttpStatusCode> ReadAsync(long from)
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, address);
            request.Headers.Range = new System.Net.Http.Headers.RangeHeaderValue(from, from + 65_535);
            try
            {
                using var response = await host.Dav.SendAsync(request, deadline.Token);
                if (response.IsSuccessStatusCode)
                    Assert.Equal(video.ReadExpected(from, 65_536), await response.Content.ReadAsByteArrayAsync(deadline.Token));
                return response.StatusCode;
            }
            catch (HttpRequestException)
            {
                return 0; // the body was cut short: the stream could not go on
            }
        }

        Assert.Equal(System.Net.HttpStatusCode.PartialContent, await ReadAsync(0));
        var healthy = await NextProviderAsync(_ => true);
        Assert.Equal("ok", healthy.GetProperty("state").GetString());
        Assert.Equal(JsonValueKind.Null, healthy.GetProperty("lastError").ValueKind);

        // The provider goes away: its sessions are cut and new connections are reset.
        nntp.Behavior.Down = true;
        var offset = 1L * 1024 * 1024;
        JsonElement down;
        while (true)
        {
            Assert.NotEqual(System.Net.HttpStatusCode.PartialContent, await ReadAsync(offset));
            offset += 512 * 1024;
            var seen = await NextProviderAsync(_ => true);
            if (seen.GetProperty("state").GetString() == "down")
            {
                down = seen;
                break;
            }
        }

        Assert.True(down.GetProperty("connectionFailures").GetInt64() >= 2);
        Assert.False(string.IsNullOrWhiteSpace(down.GetProperty("lastError").GetString()));
        // The mock resets connections while down: said as what it means for the user, not as a socket error.
        Assert.Equal($"127.0.0.1:{nntp.Port} cut the connection: the server is down or turns this client away; if it lasts, check the provider's status page and your account.",
            down.GetProperty("lastError").GetString());
        var since = down.GetProperty("failingSince").GetDateTimeOffset();
        Assert.InRange(since, down.GetProperty("lastErrorAt").GetDateTimeOffset().AddMinutes(-1), down.GetProperty("lastErrorAt").GetDateTimeOffset());
        Assert.True(down.GetProperty("retryAt").GetDateTimeOffset() > since);

        // Back up: after the cooldown the next read is the trial; it works and the provider is ok
        // again, its last error kept for the record.
        nntp.Behavior.Down = false;
        JsonElement recovered;
        while (true)
        {
            await ReadAsync(offset);
            var seen = await NextProviderAsync(_ => true);
            if (seen.GetProperty("state").GetString() == "ok")
            {
                recovered = seen;
                break;
            }
        }

        Assert.Equal(System.Net.HttpStatusCode.PartialContent, await ReadAsync(offset + 512 * 1024));
        Assert.Equal(JsonValueKind.Null, recovered.GetProperty("failingSince").ValueKind);
        Assert.Equal(down.GetProperty("lastError").GetString(), recovered.GetProperty("lastError").GetString());
    }
}
