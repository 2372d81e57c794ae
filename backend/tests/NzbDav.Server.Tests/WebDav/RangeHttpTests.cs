using System.Diagnostics;
using NzbDav.Data.Entities;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>
/// GET/HEAD over a real socket, checking the exact header strings the server sends. The tests that
/// only read share one seeded server (<see cref="SeededServer"/>); those that watch the file opener
/// start their own, since another test's reads would move what they count.
/// </summary>
public sealed class RangeHttpTests(RangeHttpTests.SeededServer seeded) : IClassFixture<RangeHttpTests.SeededServer>
{
    private const long Size = 1000;

    private static async Task<(DavTestServer Server, TempDirectory Temp, DavItem File)> StartAsync(CancellationToken ct)
    {
        var temp = new TempDirectory();
        var server = await DavTestServer.StartAsync(temp.Path, ct);
        var (_, files) = await server.SeedCompletedJobAsync("tv", "Show", [("e1.mkv", Size), ("big.mkv", 1L << 40)], ct);
        return (server, temp, files[0]);
    }

    private static string ETagOf(DavItem file) => $"\"{file.Id:N}-{file.Size:x}\"";

    [Fact]
    public async Task Full_get_sends_every_validator_and_the_exact_bytes()
    {
        var ct = TestContext.Current.CancellationToken;
        var (server, file) = (seeded.Server, seeded.File);

        using var response = await DavHttp.SendAsync(server.Http, "GET", "/content/tv/Show/e1.mkv", ct);

        Assert.Equal(200, (int)response.StatusCode);
        Assert.Equal("bytes", DavHttp.RawHeader(response, "Accept-Ranges"));
        Assert.Equal(ETagOf(file), DavHttp.RawHeader(response, "ETag"));
        Assert.Equal("Sun, 01 Nov 2026 12:00:05 GMT", DavHttp.RawHeader(response, "Last-Modified"));
        Assert.Equal("1000", DavHttp.RawHeader(response, "Content-Length"));
        Assert.Equal("video/x-matroska", DavHttp.RawHeader(response, "Content-Type"));
        Assert.Null(DavHttp.RawHeader(response, "Content-Range"));
        Assert.Equal(PatternStream.Expected(0, Size), await response.Content.ReadAsByteArrayAsync(ct));
    }

    [Theory]
    [MemberData(nameof(HttpRangeCases.Satisfiable), MemberType = typeof(HttpRangeCases))]
    public async Task Single_ranges_answer_206_with_exact_headers(string range, long from, long to)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = seeded.Server;

        using var response = await DavHttp.SendAsync(server.Http, "GET", "/.ids/" + (await FileIdAsync(server, ct)), ct, ("Range", range));

        Assert.Equal(206, (int)response.StatusCode);
        Assert.Equal($"bytes {from}-{to}/1000", DavHttp.RawHeader(response, "Content-Range"));
        Assert.Equal((to - from + 1).ToString(), DavHttp.RawHeader(response, "Content-Length"));
        Assert.Equal(PatternStream.Expected(from, to - from + 1), await response.Content.ReadAsByteArrayAsync(ct));
    }

    [Theory]
    [InlineData("bytes=1000-")]
    [InlineData("bytes=-0")]
    public async Task Unsatisfiable_ranges_answer_416_with_the_length(string range)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = seeded.Server;

        using var response = await DavHttp.SendAsync(server.Http, "GET", "/content/tv/Show/e1.mkv", ct, ("Range", range));

        Assert.Equal(416, (int)response.StatusCode);
        Assert.Equal("bytes */1000", DavHttp.RawHeader(response, "Content-Range"));
        Assert.Empty(await response.Content.ReadAsByteArrayAsync(ct));
    }

    [Theory]
    [InlineData("bytes=abc")]
    [InlineData("bytes=9-3")]
    [InlineData("lines=1-2")]
    [InlineData("bytes=0-1,4-5")]
    public async Task Malformed_or_multiple_ranges_get_the_whole_file(string range)
    {
        var ct = TestContext.Current.CancellationToken;
        var server = seeded.Server;

        using var response = await DavHttp.SendAsync(server.Http, "GET", "/content/tv/Show/e1.mkv", ct, ("Range", range));

        Assert.Equal(200, (int)response.StatusCode);
        Assert.Equal("1000", DavHttp.RawHeader(response, "Content-Length"));
        Assert.Equal(PatternStream.Expected(0, Size), await response.Content.ReadAsByteArrayAsync(ct));
    }

    [Fact]
    public async Task If_range_serves_the_range_only_when_the_validator_matches()
    {
        var ct = TestContext.Current.CancellationToken;
        var (server, file) = (seeded.Server, seeded.File);
        const string path = "/content/tv/Show/e1.mkv";

        using (var byTag = await DavHttp.SendAsync(server.Http, "GET", path, ct, ("Range", "bytes=10-19"), ("If-Range", ETagOf(file))))
            Assert.Equal(206, (int)byTag.StatusCode);
        using (var byDate = await DavHttp.SendAsync(server.Http, "GET", path, ct, ("Range", "bytes=10-19"), ("If-Range", "Sun, 01 Nov 2026 12:00:05 GMT")))
            Assert.Equal(206, (int)byDate.StatusCode);
        using (var staleTag = await DavHttp.SendAsync(server.Http, "GET", path, ct, ("Range", "bytes=10-19"), ("If-Range", "\"stale\"")))
        {
            Assert.Equal(200, (int)staleTag.StatusCode);
            Assert.Equal(1000, (await staleTag.Content.ReadAsByteArrayAsync(ct)).Length);
        }

        using (var staleDate = await DavHttp.SendAsync(server.Http, "GET", path, ct, ("Range", "bytes=10-19"), ("If-Range", "Sat, 31 Oct 2026 12:00:05 GMT")))
            Assert.Equal(200, (int)staleDate.StatusCode);
    }

    [Fact]
    public async Task Head_sends_the_same_headers_without_a_body_or_opening_the_file()
    {
        var ct = TestContext.Current.CancellationToken;
        var (server, temp, file) = await StartAsync(ct);
        await using var _s = server;
        using var _t = temp;

        using var response = await DavHttp.SendAsync(server.Http, "HEAD", "/content/tv/Show/e1.mkv", ct, ("Range", "bytes=100-"));

        Assert.Equal(206, (int)response.StatusCode);
        Assert.Equal("bytes 100-999/1000", DavHttp.RawHeader(response, "Content-Range"));
        Assert.Equal("900", DavHttp.RawHeader(response, "Content-Length"));
        Assert.Equal(ETagOf(file), DavHttp.RawHeader(response, "ETag"));
        Assert.Empty(await response.Content.ReadAsByteArrayAsync(ct));
        Assert.False(server.Opener.FirstDisposed.Task.IsCompleted);
    }

    [Fact]
    public async Task Client_disconnect_disposes_the_source_stream()
    {
        var ct = TestContext.Current.CancellationToken;
        var (server, temp, _) = await StartAsync(ct);
        await using var _s = server;
        using var _t = temp;

        using (var http = new HttpClient { BaseAddress = server.Address })
        {
            http.DefaultRequestHeaders.Authorization = DavTestServer.BasicHeader(DavTestServer.User, DavTestServer.Password);
            using var response = await http.GetAsync("/content/tv/Show/big.mkv", HttpCompletionOption.ResponseHeadersRead, ct);
            Assert.Equal((1L << 40).ToString(), DavHttp.RawHeader(response, "Content-Length"));
            await using var body = await response.Content.ReadAsStreamAsync(ct);
            var buffer = new byte[64 * 1024];
            await body.ReadExactlyAsync(buffer, ct);
            Assert.Equal(PatternStream.Expected(0, buffer.Length), buffer);
        }

        // A terabyte cannot be sent in the wait below; only the abort can end the copy.
        await server.Opener.FirstDisposed.Task.WaitAsync(TimeSpan.FromSeconds(30), ct);
        Assert.Equal(0, server.Opener.OpenStreams);
    }

    [Fact]
    public async Task A_client_that_stops_reading_stops_the_server_reading()
    {
        var ct = TestContext.Current.CancellationToken;
        var (server, temp, _) = await StartAsync(ct);
        await using var _s = server;
        using var _t = temp;

        using var http = new HttpClient { BaseAddress = server.Address };
        http.DefaultRequestHeaders.Authorization = DavTestServer.BasicHeader(DavTestServer.User, DavTestServer.Password);
        using var response = await http.GetAsync("/content/tv/Show/big.mkv", HttpCompletionOption.ResponseHeadersRead, ct);
        await using var body = await response.Content.ReadAsStreamAsync(ct);
        var buffer = new byte[64 * 1024];
        await body.ReadExactlyAsync(buffer, ct);

        // The source produces gigabytes a second: without back-pressure no flush ever waits and the
        // reads race past the bound. With it, a flush waits for the client once Kestrel's response
        // buffer is full, and no read starts while it does. The bound covers socket buffers (a few
        // MiB each way on loopback), that buffer and one read.
        const long bound = 32L << 20;
        var source = server.Opener.LastOpened!;
        var started = Stopwatch.GetTimestamp();
        while (server.Flushes.Waiting == 0)
        {
            Assert.True(source.Position <= bound, $"the server read {source.Position} bytes for a client that took {buffer.Length}");
            Assert.True(Stopwatch.GetElapsedTime(started) < TimeSpan.FromSeconds(30), "no response flush ever waited for the client");
            await Task.Delay(10, ct);
        }

        Assert.InRange(source.Position, buffer.Length, bound);
        await body.ReadExactlyAsync(buffer, ct);
        Assert.Equal(PatternStream.Expected(buffer.Length, buffer.Length), buffer);
    }

    private static async Task<Guid> FileIdAsync(DavTestServer server, CancellationToken ct)
    {
        var listing = await DavHttp.MultistatusAsync(server.Http, "/.ids/", "1", null, ct);
        var entry = listing.Single(e => DavHttp.OkProp(e.Value, "getcontentlength")?.Value == "1000");
        return Guid.Parse(entry.Key["/.ids/".Length..]);
    }

    /// <summary>The server with the seeded job, started once for the tests that only read from it.</summary>
    public sealed class SeededServer : IAsyncLifetime
    {
        private TempDirectory? _temp;

        public DavTestServer Server { get; private set; } = null!;

        public DavItem File { get; private set; } = null!;

        public async ValueTask InitializeAsync() =>
            (Server, _temp, File) = await StartAsync(TestContext.Current.CancellationToken);

        public async ValueTask DisposeAsync()
        {
            if (Server is not null)
                await Server.DisposeAsync();
            _temp?.Dispose();
        }
    }
}
