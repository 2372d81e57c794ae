using NzbDav.Data.Entities;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>
/// The Range and auth cases as the <c>curl</c> binary sees them on the wire: status line, the
/// exact header strings and the body bytes, from a real server on a loopback port. Every test
/// only reads, so the class shares one server (<see cref="CurlRun"/>).
/// </summary>
public sealed class CurlTests(CurlTests.CurlRun run) : IClassFixture<CurlTests.CurlRun>
{
    private const long Size = 1000;
    private const string File = "/content/tv/Show/e1.mkv";

    [Theory]
    [MemberData(nameof(HttpRangeCases.Satisfiable), MemberType = typeof(HttpRangeCases))]
    public async Task Ranges_answer_206_with_exact_content_range_and_length(string range, long from, long to)
    {
        var answer = await run.CurlAsync(File, ["-H", "Range: " + range]);

        Assert.Equal(206, answer.Status);
        Assert.Equal($"bytes {from}-{to}/{Size}", answer.Header("Content-Range"));
        Assert.Equal((to - from + 1).ToString(), answer.Header("Content-Length"));
        Assert.Equal(PatternStream.Expected(from, to - from + 1), answer.Body);
    }

    [Theory]
    [InlineData("bytes=1000-")]
    [InlineData("bytes=-0")]
    [InlineData("bytes=5000-6000")]
    public async Task Unsatisfiable_ranges_answer_416_naming_the_length(string range)
    {
        var answer = await run.CurlAsync(File, ["-H", "Range: " + range]);

        Assert.Equal(416, answer.Status);
        Assert.Equal($"bytes */{Size}", answer.Header("Content-Range"));
        Assert.Empty(answer.Body);
    }

    [Theory]
    [InlineData("bytes=5-1")]
    [InlineData("bytes=x")]
    [InlineData("items=0-1")]
    [InlineData("bytes=0-1,5-6")]
    public async Task Malformed_or_multiple_ranges_get_the_whole_file(string range)
    {
        var answer = await run.CurlAsync(File, ["-H", "Range: " + range]);

        Assert.Equal(200, answer.Status);
        Assert.Null(answer.Header("Content-Range"));
        Assert.Equal(Size.ToString(), answer.Header("Content-Length"));
        Assert.Equal(PatternStream.Expected(0, Size), answer.Body);
    }

    [Fact]
    public async Task If_range_and_head_behave_as_curl_expects()
    {
        var whole = await run.CurlAsync(File, []);
        Assert.Equal(200, whole.Status);
        Assert.Equal("bytes", whole.Header("Accept-Ranges"));
        var etag = whole.Header("ETag")!;
        var modified = whole.Header("Last-Modified")!;

        Assert.Equal(206, (await run.CurlAsync(File, ["-H", "Range: bytes=10-19", "-H", "If-Range: " + etag])).Status);
        Assert.Equal(206, (await run.CurlAsync(File, ["-H", "Range: bytes=10-19", "-H", "If-Range: " + modified])).Status);
        var stale = await run.CurlAsync(File, ["-H", "Range: bytes=10-19", "-H", "If-Range: \"stale\""]);
        Assert.Equal(200, stale.Status);
        Assert.Equal(PatternStream.Expected(0, Size), stale.Body);

        // curl's own range option, as scripts use it.
        var curlRange = await run.CurlAsync(File, ["-r", "100-199"]);
        Assert.Equal("bytes 100-199/1000", curlRange.Header("Content-Range"));
        Assert.Equal(PatternStream.Expected(100, 100), curlRange.Body);

        var head = await run.CurlAsync(File, ["-I"]);
        Assert.Equal(200, head.Status);
        Assert.Equal(Size.ToString(), head.Header("Content-Length"));
        Assert.Equal(etag, head.Header("ETag"));
        // With --head curl writes the headers where the body would go; nothing may follow them.
        Assert.Equal(head.HeaderBytes, head.Body);
    }

    [Fact]
    public async Task Without_the_right_credentials_curl_gets_401_and_no_bytes()
    {

        foreach (var credentials in new[] { null, DavTestServer.User + ":wrong", "nobody:" + DavTestServer.Password })
        {
            foreach (var path in new[] { File, "/", "/content/", "/.ids/", "/nzbs/" })
            {
                var answer = await run.CurlAsync(path, ["-H", "Range: bytes=0-99"], credentials);
                Assert.Equal(401, answer.Status);
                Assert.Equal("Basic realm=\"NzbDav\"", answer.Header("WWW-Authenticate"));
                Assert.DoesNotContain(PatternStream.Expected(0, 16), Chunks(answer.Body, 16));
            }
        }
    }

    [Theory]
    [InlineData("/content/tv/Show/../../../etc/passwd")]
    [InlineData("/content/tv/Show/%2e%2e/%2e%2e/%2e%2e/etc/passwd")]
    [InlineData("/content/tv/Show/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd")]
    [InlineData("/content/tv/Show/..%5c..%5cetc%5cpasswd")]
    public async Task Traversal_paths_never_leave_the_tree(string path)
    {
        // --path-as-is: curl must not normalise the dots away before they reach the server.
        var answer = await run.CurlAsync(path, ["--path-as-is"]);

        Assert.Contains(answer.Status, new[] { 400, 404 });
        Assert.DoesNotContain("root:", System.Text.Encoding.ASCII.GetString(answer.Body));
    }

    private static IEnumerable<byte[]> Chunks(byte[] body, int size) =>
        Enumerable.Range(0, body.Length / size).Select(i => body.AsSpan(i * size, size).ToArray());

    /// <summary>A WebDAV server with one seeded job, and a work folder for curl's header and body files.</summary>
    public sealed class CurlRun : IAsyncLifetime
    {
        private readonly TempDirectory _temp = new();
        private DavTestServer _server = null!;
        private int _calls;

        public async ValueTask InitializeAsync()
        {
            var ct = TestContext.Current.CancellationToken;
            _server = await DavTestServer.StartAsync(_temp.Path, ct);
            IReadOnlyList<DavItem> files;
            (_, files) = await _server.SeedCompletedJobAsync("tv", "Show", [("e1.mkv", Size)], ct);
            Assert.Single(files);
        }

        /// <param name="credentials"><c>user:password</c>; the server's account when omitted, none when null.</param>
        public async Task<CurlAnswer> CurlAsync(string path, IReadOnlyList<string> options, string? credentials = DavTestServer.User + ":" + DavTestServer.Password)
        {
            var call = Interlocked.Increment(ref _calls);
            var headers = Path.Combine(_temp.Path, $"headers-{call}.txt");
            var body = Path.Combine(_temp.Path, $"body-{call}.bin");
            List<string> arguments = ["--silent", "--show-error", "--globoff", "--dump-header", headers, "--output", body, "--write-out", "%{http_code}"];
            if (credentials is not null)
                arguments.AddRange(["--user", credentials]);
            arguments.AddRange(options);
            arguments.Add(_server.Address.GetLeftPart(UriPartial.Authority) + path);

            var output = await ExternalTool.RunCheckedAsync("curl", arguments, TestContext.Current.CancellationToken);
            var headerBytes = await System.IO.File.ReadAllBytesAsync(headers);
            var bytes = System.IO.File.Exists(body) ? await System.IO.File.ReadAllBytesAsync(body) : [];
            return new CurlAnswer(int.Parse(System.Text.Encoding.ASCII.GetString(output)), headerBytes, bytes);
        }

        public async ValueTask DisposeAsync()
        {
            if (_server is not null)
                await _server.DisposeAsync();
            _temp.Dispose();
        }
    }

    /// <summary>What curl received: the status, the raw header block and the body bytes.</summary>
    public sealed record CurlAnswer(int Status, byte[] HeaderBytes, byte[] Body)
    {
        /// <summary>The header's value exactly as sent (names compared without case); null when absent.</summary>
        public string? Header(string name) =>
            System.Text.Encoding.ASCII.GetString(HeaderBytes).Split("\r\n")
                .Where(line => line.StartsWith(name + ":", StringComparison.OrdinalIgnoreCase))
                .Select(line => line[(name.Length + 1)..].Trim())
                .SingleOrDefault();
    }
}
