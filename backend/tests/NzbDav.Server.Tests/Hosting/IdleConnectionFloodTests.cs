using System.Diagnostics;
using System.Net.Sockets;
using System.Security.Cryptography;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>
/// 1,000 connections that hold a socket and send nothing useful — half idle, half trickling a header
/// (slowloris) — while a file streams from the mock provider: the stream neither stalls nor loses a
/// byte, the slow ones are cut at the header timeout, and the idle ones were all accepted.
/// </summary>
public sealed class IdleConnectionFloodTests
{
    private const int IdleConnections = 500;
    private const int SlowConnections = 500;
    private const int SegmentSize = 64 * 1024;
    private const long FileSize = 24L * 1024 * 1024;
    private static readonly TimeSpan HeaderTimeout = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan TrickleInterval = TimeSpan.FromMilliseconds(300);
    private static readonly TimeSpan MaxReadWait = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan CutDeadline = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task A_thousand_idle_or_slow_header_connections_do_not_stall_a_playing_stream()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer();
        await nntp.StartAsync(ct);
        var file = nntp.Store.AddGeneratedFile("Flood.2024.mkv", FileSize, SegmentSize);
        var expected = SHA256.HashData(file.ReadExpected(0, (int)FileSize));
        using var nzb = new MemoryStream();
        nntp.WriteNzb(nzb, "x");
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, null,
            "--Server:Limits:RequestHeadersTimeout=" + HeaderTimeout.ToString("c", System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal("Completed", (await host.AddAndWaitAsync(nzb.ToArray(), "Flood.2024.nzb", ct)).GetProperty("status").GetString());
        var address = host.Dav.BaseAddress!;

        var idle = new List<Socket>(IdleConnections);
        var slow = new List<(Socket Socket, long FirstByte, Task<long> Closed)>(SlowConnections);
        try
        {
            // One at a time: a burst of 1,000 connects would overflow the listen backlog and time out
            // in the kernel's SYN retries rather than in anything the server does.
            for (var i = 0; i < IdleConnections + SlowConnections; i++)
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                await socket.ConnectAsync(address.Host, address.Port, ct);
                if (i % 2 == 0)
                {
                    idle.Add(socket);
                    continue;
                }

                await socket.SendAsync("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "u8.ToArray(), SocketFlags.None, ct);
                slow.Add((socket, Stopwatch.GetTimestamp(), RawHttp.WaitForCloseAsync(socket, ct)));
            }

            using var stopTrickle = CancellationTokenSource.CreateLinkedTokenSource(ct);
            var trickle = TrickleAsync(slow, stopTrickle.Token);
            var allCut = Task.WhenAll(slow.Select(s => s.Closed));

            // Streams the file again and again until every slow connection has been cut, so the
            // stream runs through the whole time they are open and the moment they are closed.
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
                    $"{slow.Count(s => !s.Closed.IsCompleted)} slow-header connections still open {CutDeadline.TotalSeconds} s after they began");
            }
            while (!allCut.IsCompleted);
            await stopTrickle.CancelAsync();
            await trickle;

            var cuts = slow.Select(s => Stopwatch.GetElapsedTime(s.FirstByte, s.Closed.Result).TotalMilliseconds).Order().ToList();
            TestContext.Current.TestOutputHelper?.WriteLine(
                $"{streams} whole-file GETs of {FileSize} bytes in {Stopwatch.GetElapsedTime(started).TotalSeconds:0.0} s; longest read wait {maxWait.TotalMilliseconds:0} ms; " +
                $"slow-header connections cut after {cuts[0]:0}–{cuts[^1]:0} ms (median {cuts[cuts.Count / 2]:0})");
            Assert.True(maxWait < MaxReadWait, $"a read of the stream waited {maxWait.TotalMilliseconds:0} ms ({streams} whole-file GETs)");
            // Cut by the header timeout, not by anything sooner (Kestrel checks its timeouts once a second).
            var earliest = slow.Min(s => Stopwatch.GetElapsedTime(s.FirstByte, s.Closed.Result));
            Assert.True(earliest >= HeaderTimeout - TimeSpan.FromMilliseconds(100), $"a slow-header connection was closed after {earliest.TotalMilliseconds:0} ms");
            // Every idle connection was accepted and is still held (no answer, no close): none was
            // refused for lack of room, and the ones that were cut did not take them along.
            var dropped = idle.Count(s => s.Poll(0, SelectMode.SelectRead));
            Assert.Equal(0, dropped);
        }
        finally
        {
            foreach (var socket in idle.Concat(slow.Select(s => s.Socket)))
                socket.Dispose();
        }
    }

    /// <summary>One more header byte to every slow connection the server has not cut yet, every <see cref="TrickleInterval"/>.</summary>
    private static async Task TrickleAsync(List<(Socket Socket, long FirstByte, Task<long> Closed)> slow, CancellationToken cancellationToken)
    {
        var oneByte = "a"u8.ToArray();
        using var timer = new PeriodicTimer(TrickleInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                foreach (var (socket, _, closed) in slow)
                {
                    if (closed.IsCompleted)
                        continue;
                    try
                    {
                        await socket.SendAsync(oneByte, SocketFlags.None, cancellationToken);
                    }
                    catch (SocketException)
                    {
                        // Cut between the check and the send.
                    }
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Every slow connection is gone.
        }
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
