using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>A player closing a file mid-body, over the whole real path: HTTP, opener, stream, provider.</summary>
public sealed class DroppedGetTests
{
    private const int SegmentSize = 64 * 1024;
    private const int Segments = 1600;
    private static readonly TimeSpan ReleaseDeadline = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task A_client_that_drops_a_get_mid_body_stops_the_fetches_and_frees_its_connections()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var nntp = new MockNntpServer(new MockNntpOptions { Behavior = new MockBehavior { Latency = TimeSpan.FromMilliseconds(20) } });
        await nntp.StartAsync(ct);
        var file = nntp.Store.AddGeneratedFile("Movie.2024.mkv", (long)Segments * SegmentSize, SegmentSize);
        using var nzb = new MemoryStream();
        nntp.WriteNzb(nzb, "x");
        // Idle leases would go back after a minute only, so permits returning in time prove the stream was closed.
        await using var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, null, "--Streaming:WorkerIdleTimeout=00:01:00");
        var slot = await host.AddAndWaitAsync(nzb.ToArray(), "Movie.2024.nzb", ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        var limiter = host.Server.Services.GetRequiredService<GlobalOperationLimiter>();

        using (var request = new HttpRequestMessage(HttpMethod.Get, "/content/tv/Movie.2024/Movie.2024.mkv"))
        using (var response = await host.Dav.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct))
        {
            await using var body = await response.Content.ReadAsStreamAsync(ct);
            var buffer = new byte[256 * 1024];
            await body.ReadExactlyAsync(buffer, ct);
            Assert.Equal(file.ReadExpected(0, buffer.Length), buffer);
            Assert.True(limiter.GetStats().StreamingInUse > 0, "the stream should hold streaming permits while it fetches ahead");
            // Leaving the block drops the response mid-body, as a player closing the file does.
        }

        var started = Stopwatch.GetTimestamp();
        while (limiter.GetStats().StreamingInUse > 0)
        {
            Assert.True(Stopwatch.GetElapsedTime(started) < ReleaseDeadline, $"streaming permits still held {ReleaseDeadline.TotalSeconds} s after the client left: {limiter.GetStats()}");
            await Task.Delay(20, ct);
        }

        // Nothing fetches for the stream any more. Commands it had already pipelined reach the
        // provider a moment later: count once the provider has ended every session.
        await host.StopAndWaitForProviderAsync(nntp, ct);
        var settled = nntp.Stats.GetCommandCount(MockCommandKind.Body);
        Assert.True(settled < Segments / 4, $"{settled} BODY commands for a {Segments}-segment file of which 256 KiB was read");
    }
}
