using System.Diagnostics;
using System.Security.Cryptography;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>
/// 1,000 connections that hold a socket and send nothing useful — half idle, half trickling a header
/// (slowloris) — while a file streams from the mock provider: the stream neither stalls nor loses a
/// byte, the slow ones are cut at the header timeout, and the idle ones were all accepted.
/// </summary>
[SlowTest("holds 1,000 sockets open against the server")]
public sealed class IdleConnectionFloodTests(MockProviderFixture provider)
{
    private const int Connections = 1000;
    private const int SegmentSize = 64 * 1024;
    private const long FileSize = 24L * 1024 * 1024;
    private static readonly TimeSpan HeaderTimeout = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan MaxReadWait = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan CutDeadline = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task A_thousand_idle_or_slow_header_connections_do_not_stall_a_playing_stream()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var nntp = provider.Server;
        var file = nntp.Store.AddGeneratedFile("Flood.2024.mkv", FileSize, SegmentSize);
        var expected = SHA256.HashData(file.ReadExpected(0, (int)FileSize));
        var nzb = provider.Nzb("x", file);
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, null,
            "--Server:Limits:RequestHeadersTimeout=" + HeaderTimeout.ToString("c", System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal("Completed", (await host.AddAndWaitAsync(nzb, "Flood.2024.nzb", ct)).GetProperty("status").GetString());
        var address = host.Dav.BaseAddress!;

        // Half idle, half trickling a header one byte every 300 ms, opened one at a time (a burst of
        // 1,000 connects would overflow the listen backlog and time out in the kernel's SYN retries).
        await using var hostile = await HostileConnections.OpenAsync(address, Connections, ct);

        // Streams the file again and again until every slow connection has been cut, so the stream
        // runs through the whole time they are open and the moment they are closed.
        var maxWait = TimeSpan.Zero;
        var streams = 0;
        var started = Stopwatch.GetTimestamp();
        do
        {
            var (hash, longest) = await StreamAsync(host.Dav, "/content/tv/Flood.2024/Flood.2024.mkv", ct);
            Assert.Equal(expected, hash);
            maxWait = longest > maxWait ? longest : maxWait;
            streams++;
            Assert.True(Stopwatch.GetElapsedTime(started) < CutDeadline,
                $"{hostile.SlowOpen} slow-header connections still open {CutDeadline.TotalSeconds} s after they began");
        }
        while (!hostile.AllSlowCut.IsCompleted);

        var cuts = await hostile.SlowCutAfterAsync();
        var result = await hostile.StopAsync();
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"{streams} whole-file GETs of {FileSize} bytes in {Stopwatch.GetElapsedTime(started).TotalSeconds:0.0} s; longest read wait {maxWait.TotalMilliseconds:0} ms; " +
            $"slow-header connections cut after {cuts[0].TotalMilliseconds:0}–{cuts[^1].TotalMilliseconds:0} ms (median {cuts[cuts.Count / 2].TotalMilliseconds:0})");
        Assert.True(maxWait < MaxReadWait, $"a read of the stream waited {maxWait.TotalMilliseconds:0} ms ({streams} whole-file GETs)");
        Assert.Equal(Connections / 2, result.Slow);
        Assert.Equal(result.Slow, result.SlowCut);
        // Cut by the header timeout, not by anything sooner (Kestrel checks its timeouts once a second).
        Assert.True(cuts[0] >= HeaderTimeout - TimeSpan.FromMilliseconds(100), $"a slow-header connection was closed after {cuts[0].TotalMilliseconds:0} ms");
        // Every idle connection was accepted and is still held (no answer, no close): none was
        // refused for lack of room, and the ones that were cut did not take them along.
        Assert.Equal(Connections / 2, result.Idle);
        Assert.Equal(result.Idle, result.IdleHeld);
    }

    /// <summary>GETs the whole file; returns its SHA-256 and the longest any one read of the body waited.</summary>
    private static async Task<(byte[] Hash, TimeSpan LongestRead)> StreamAsync(HttpClient http, string path, CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync(path, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        response.EnsureSuccessStatusCode();
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        using var sha = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var buffer = new byte[64 * 1024];
        var longest = TimeSpan.Zero;
        long total = 0;
        while (true)
        {
            var before = Stopwatch.GetTimestamp();
            var read = await body.ReadAsync(buffer, cancellationToken);
            var waited = Stopwatch.GetElapsedTime(before);
            longest = waited > longest ? waited : longest;
            if (read == 0)
                break;
            sha.AppendData(buffer, 0, read);
            total += read;
        }

        Assert.Equal(FileSize, total);
        return (sha.GetHashAndReset(), longest);
    }
}
