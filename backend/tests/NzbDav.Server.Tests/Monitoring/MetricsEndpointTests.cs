using System.Diagnostics;
using System.Net.Http.Headers;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.WebDav;

namespace NzbDav.Server.Tests.Monitoring;

/// <summary><c>GET /metrics</c> of the real host over real sockets, against the in-process mock NNTP server.</summary>
public sealed class MetricsEndpointTests
{
    private const int SegmentSize = 64 * 1024;
    // 25 MiB: more than the socket and Kestrel buffers hold, so the stream is still open while the client pauses.
    private const int Segments = 400;
    private const string Provider = "mock";
    private static readonly TimeSpan SettleDeadline = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task A_stream_grows_the_provider_byte_counter_by_what_it_fetched_and_the_served_counter_by_what_the_client_got()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer(new MockNntpOptions { Behavior = new MockBehavior { Latency = TimeSpan.FromMilliseconds(5) } });
        await nntp.StartAsync(ct);
        var file = nntp.Store.AddGeneratedFile("Show.S01E01.mkv", (long)Segments * SegmentSize, SegmentSize);
        await using var host = await StartAsync(data.Path, nntp, ct);
        var metrics = ApiKeyScraper(host);

        var before = await PrometheusScrape.GetAsync(metrics, "/metrics", ct);
        var bodiesBefore = nntp.Stats.GetCommandCount(MockCommandKind.Body);
        Assert.Equal(1, before.Value("nzbdav_nzbs_added_total"));
        Assert.Equal(1, before.Value("nzbdav_jobs", ("state", "completed")));
        Assert.Equal(0, before.Value("nzbdav_jobs", ("state", "queued")));
        Assert.Equal(1, before.Value("nzbdav_ingestion_duration_seconds_count", ("outcome", "completed")));

        long received = 0;
        using (var response = await host.Dav.GetAsync("/content/tv/Show.S01E01/Show.S01E01.mkv", HttpCompletionOption.ResponseHeadersRead, ct))
        {
            Assert.Equal(200, (int)response.StatusCode);
            await using var body = await response.Content.ReadAsStreamAsync(ct);
            var buffer = new byte[256 * 1024];
            await body.ReadExactlyAsync(buffer, ct);
            Assert.Equal(file.ReadExpected(0, buffer.Length), buffer);
            received += buffer.Length;

            // Mid-body: the stream is open and counted as such.
            var during = await PrometheusScrape.GetAsync(metrics, "/metrics", ct);
            Assert.Equal(1, during.Value("nzbdav_streams_open"));
            Assert.True(during.Value("nzbdav_stream_served_bytes_total") - before.Value("nzbdav_stream_served_bytes_total") >= buffer.Length);

            int read;
            while ((read = await body.ReadAsync(buffer, ct)) > 0)
                received += read;
        }

        Assert.Equal(file.Size, received);
        var after = await SettledAsync(metrics, ct);
        var bodies = nntp.Stats.GetCommandCount(MockCommandKind.Body) - bodiesBefore;

        // Served: exactly what the client received.
        Assert.Equal(received, after.Value("nzbdav_stream_served_bytes_total") - before.Value("nzbdav_stream_served_bytes_total"));
        // Fetched: a whole 64 KiB segment per article answered ok; at least the file, at most a few
        // segments more (a straggler race may fetch one twice). A race's loser that arrives after the
        // winner is abandoned and skipped undecoded, so it is not counted: the mock may have answered
        // more BODYs than were counted (on a loaded machine a few stragglers are raced), never fewer.
        var fetched = after.Value("nzbdav_provider_fetched_bytes_total", ("provider", Provider)) - before.Value("nzbdav_provider_fetched_bytes_total", ("provider", Provider));
        var ok = after.Value("nzbdav_provider_articles_total", ("outcome", "ok"), ("provider", Provider)) - before.Value("nzbdav_provider_articles_total", ("outcome", "ok"), ("provider", Provider));
        Assert.Equal(ok * SegmentSize, fetched);
        Assert.InRange(ok, 1, bodies);
        Assert.InRange(fetched, file.Size, file.Size + (4L * SegmentSize));
        Assert.Equal(0, after.Value("nzbdav_provider_articles_total", ("outcome", "missing"), ("provider", Provider)));
        Assert.True(after.Value("nzbdav_provider_body_first_byte_seconds_count", ("provider", Provider)) >= ok);
        Assert.True(after.Value("nzbdav_provider_body_duration_seconds_count", ("provider", Provider)) >= ok);
        Assert.True(after.Value("nzbdav_stream_reads_total") > before.Value("nzbdav_stream_reads_total"));
        Assert.Equal(0, after.Value("nzbdav_streams_open"));

        // The first read had to wait for the provider: counted once per read, with its wait time.
        var waits = after.Value("nzbdav_stream_read_waits_total") - before.Value("nzbdav_stream_read_waits_total");
        Assert.True(waits >= 1, after.Text);
        Assert.Equal(waits, after.Value("nzbdav_stream_read_wait_seconds_count") - (before.Find("nzbdav_stream_read_wait_seconds_count") ?? 0));

        // A ranged GET seeks its new stream once; the time to its first byte is observed once.
        using (var ranged = new HttpRequestMessage(HttpMethod.Get, "/content/tv/Show.S01E01/Show.S01E01.mkv"))
        {
            ranged.Headers.Range = new RangeHeaderValue(100L * SegmentSize, (100L * SegmentSize) + 1023);
            using var response = await host.Dav.SendAsync(ranged, ct);
            Assert.Equal(206, (int)response.StatusCode);
            Assert.Equal(file.ReadExpected(100L * SegmentSize, 1024), await response.Content.ReadAsByteArrayAsync(ct));
        }

        var seeked = await SettledAsync(metrics, ct);
        Assert.Equal(1, seeked.Value("nzbdav_stream_seeks_total") - after.Value("nzbdav_stream_seeks_total"));
        Assert.Equal(1, seeked.Value("nzbdav_stream_seek_first_byte_seconds_count") - (after.Find("nzbdav_stream_seek_first_byte_seconds_count") ?? 0));
        Assert.Equal(1024, seeked.Value("nzbdav_stream_served_bytes_total") - after.Value("nzbdav_stream_served_bytes_total"));

        // Types and names as Prometheus expects them.
        Assert.Equal("counter", after.TypeOf("nzbdav_provider_fetched_bytes_total"));
        Assert.Equal("counter", after.TypeOf("nzbdav_stream_served_bytes_total"));
        Assert.Equal("histogram", after.TypeOf("nzbdav_provider_body_first_byte_seconds"));
        Assert.Equal("gauge", after.TypeOf("nzbdav_limiter_permits_in_use"));

        // Levels: the limiter per pool, the provider's sessions, the breaker.
        foreach (var pool in new[] { "streaming", "queue", "health_check" })
        {
            Assert.NotNull(after.Find("nzbdav_limiter_permits_in_use", ("pool", pool)));
            Assert.NotNull(after.Find("nzbdav_limiter_permits_guaranteed", ("pool", pool)));
            Assert.NotNull(after.Find("nzbdav_limiter_waiters", ("pool", pool)));
            Assert.InRange(after.Value("nzbdav_limiter_permits_max", ("pool", pool)), after.Value("nzbdav_limiter_permits_guaranteed", ("pool", pool)), 4);
        }

        Assert.Equal(4, after.Value("nzbdav_limiter_permits_max", ("pool", "streaming")));
        Assert.Equal(4, after.Value("nzbdav_provider_sessions_max", ("provider", Provider)));
        Assert.InRange(after.Value("nzbdav_provider_sessions_open", ("provider", Provider)), 0, 4);
        Assert.Equal(1, after.Value("nzbdav_provider_breaker_state", ("provider", Provider), ("state", "closed")));
        Assert.Equal(0, after.Value("nzbdav_provider_breaker_state", ("provider", Provider), ("state", "open")));
        Assert.Equal(0, after.Value("nzbdav_provider_breaker_trips_total", ("provider", Provider)));
        Assert.Equal(0, after.Value("nzbdav_provider_connections_refused_total", ("provider", Provider)));
    }

    [Fact]
    public async Task Missing_and_corrupt_articles_are_counted_under_their_outcomes()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer(new MockNntpOptions { Behavior = new MockBehavior { Latency = TimeSpan.FromMilliseconds(2) } });
        await nntp.StartAsync(ct);
        var file = nntp.Store.AddGeneratedFile("Show.S01E01.mkv", (long)Segments * SegmentSize, SegmentSize);
        await using var host = await StartAsync(data.Path, nntp, ct);
        var metrics = ApiKeyScraper(host);
        var before = await PrometheusScrape.GetAsync(metrics, "/metrics", ct);
        Assert.Equal(0, before.Value("nzbdav_provider_articles_total", ("outcome", "missing"), ("provider", Provider)));
        Assert.Equal(0, before.Value("nzbdav_provider_articles_total", ("outcome", "crc_mismatch"), ("provider", Provider)));

        nntp.Store.SetMissing(file.Articles[10], true);
        nntp.Store.SetCorrupt(file.Articles[20], true);
        await GetFailingRangeAsync(host, 10, ct);
        await GetFailingRangeAsync(host, 20, ct);

        var after = await SettledAsync(metrics, ct);
        Assert.True(after.Value("nzbdav_provider_articles_total", ("outcome", "missing"), ("provider", Provider)) >= 1, after.Text);
        Assert.True(after.Value("nzbdav_provider_articles_total", ("outcome", "crc_mismatch"), ("provider", Provider)) >= 1, after.Text);
        Assert.Equal(0, after.Value("nzbdav_provider_articles_total", ("outcome", "error"), ("provider", Provider)));
    }

    [Fact]
    public async Task Metrics_need_the_api_key_or_the_webdav_credentials()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);

        using (var anonymous = await server.Anonymous.GetAsync("/metrics", ct))
        {
            Assert.Equal(401, (int)anonymous.StatusCode);
            Assert.Equal(BasicChallenge, DavHttp.RawHeader(anonymous, "WWW-Authenticate"));
        }

        using (var wrongKey = await server.Anonymous.GetAsync("/metrics?apikey=wrong", ct))
            Assert.Equal(401, (int)wrongKey.StatusCode);
        using (var wrongBasic = new HttpRequestMessage(HttpMethod.Get, "/metrics"))
        {
            wrongBasic.Headers.Authorization = DavTestServer.BasicHeader(DavTestServer.User, "wrong");
            using var response = await server.Anonymous.SendAsync(wrongBasic, ct);
            Assert.Equal(401, (int)response.StatusCode);
        }

        // Basic auth as WebDAV clients send it; the API key in the query, a header, or as a bearer token (Prometheus's authorization block).
        Assert.Contains("nzbdav_streams_open", (await PrometheusScrape.GetAsync(server.Http, "/metrics", ct)).Text);
        Assert.Contains("nzbdav_streams_open", (await PrometheusScrape.GetAsync(server.Anonymous, "/metrics?apikey=" + DavTestServer.ApiKey, ct)).Text);
        foreach (var (header, value) in new[] { ("X-Api-Key", DavTestServer.ApiKey), ("Authorization", "Bearer " + DavTestServer.ApiKey) })
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, "/metrics");
            request.Headers.TryAddWithoutValidation(header, value);
            using var response = await server.Anonymous.SendAsync(request, ct);
            Assert.True(200 == (int)response.StatusCode, $"{header}: {(int)response.StatusCode}");
        }
    }

    [Fact]
    public async Task Anonymous_scraping_only_when_configured()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--NzbDav:Metrics:AllowAnonymous=true");

        var scrape = await PrometheusScrape.GetAsync(server.Anonymous, "/metrics", ct);
        Assert.Equal(0, scrape.Value("nzbdav_streams_open"));
        // Only /metrics opens up: the tree still asks for credentials.
        using var tree = await DavHttp.PropfindAsync(server.Anonymous, "/", "0", null, ct);
        Assert.Equal(401, (int)tree.StatusCode);
    }

    [Fact]
    public async Task Disabled_metrics_serve_no_endpoint()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct, true, "--NzbDav:Metrics:Enabled=false", "--NzbDav:Metrics:AllowAnonymous=true");

        using var anonymous = await server.Anonymous.GetAsync("/metrics", ct);
        Assert.Equal(401, (int)anonymous.StatusCode);
        using var authenticated = await server.Http.GetAsync("/metrics", ct);
        Assert.Equal(404, (int)authenticated.StatusCode);
    }

    private const string BasicChallenge = "Basic realm=\"NzbDav\"";

    private static async Task<IngestionHost> StartAsync(string dataDirectory, MockNntpServer nntp, CancellationToken cancellationToken)
    {
        using var nzb = new MemoryStream();
        nntp.WriteNzb(nzb, "x");
        var host = await IngestionHost.StartAsync(dataDirectory, nntp.Port, cancellationToken);
        try
        {
            var slot = await host.AddAndWaitAsync(nzb.ToArray(), "Show.S01E01.nzb", cancellationToken);
            Assert.Equal("Completed", slot.GetProperty("status").GetString());
            return host;
        }
        catch
        {
            await host.DisposeAsync();
            throw;
        }
    }

    private static HttpClient ApiKeyScraper(IngestionHost host)
    {
        var http = new HttpClient { BaseAddress = host.Server.Http.BaseAddress };
        http.DefaultRequestHeaders.Add("X-Api-Key", TestServer.ApiKey);
        return http;
    }

    /// <summary>
    /// A ranged GET of one whole segment the provider cannot deliver: the server fails it (status or a
    /// cut connection). Whole, because a part's last byte waits for its CRC.
    /// </summary>
    private static async Task GetFailingRangeAsync(IngestionHost host, int segment, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/content/tv/Show.S01E01/Show.S01E01.mkv");
        request.Headers.Range = new RangeHeaderValue((long)segment * SegmentSize, ((long)(segment + 1) * SegmentSize) - 1);
        try
        {
            using var response = await host.Dav.SendAsync(request, cancellationToken);
            Assert.Fail($"segment {segment} was served ({(int)response.StatusCode}) although the provider cannot deliver it");
        }
        catch (HttpRequestException)
        {
            // The connection was cut after the status line: the body is incomplete.
        }
    }

    /// <summary>Scrapes until no stream is open and no permit is held, so counters no longer move.</summary>
    private static async Task<PrometheusScrape> SettledAsync(HttpClient http, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            var scrape = await PrometheusScrape.GetAsync(http, "/metrics", cancellationToken);
            if (scrape.Value("nzbdav_streams_open") == 0 && scrape.Value("nzbdav_limiter_permits_in_use", ("pool", "streaming")) == 0)
                return scrape;
            Assert.True(Stopwatch.GetElapsedTime(started) < SettleDeadline, "streams or permits still held:\n" + scrape.Text);
            await Task.Delay(20, cancellationToken);
        }
    }
}
