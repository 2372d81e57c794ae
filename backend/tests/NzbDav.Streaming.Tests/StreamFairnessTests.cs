using NzbDav.Streaming.Tests.Support;
using NzbDav.Usenet.Limiting;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Streams share the streaming permits: idle leases are not sat on while another stream waits.</summary>
public sealed class StreamFairnessTests
{
    private const int SegmentSize = 32 * 1024;

    [Fact]
    public async Task A_stream_idling_on_its_leases_gives_them_up_when_another_stream_waits()
    {
        await using var server = await StartServerAsync();
        var first = server.Store.AddGeneratedFile("first.bin", 64L * SegmentSize, SegmentSize);
        var second = server.Store.AddGeneratedFile("second.bin", 64L * SegmentSize, SegmentSize);
        // Without the hand-back the idle leases would be held for five minutes.
        var options = new StreamingOptions
        {
            ConnectionsPerStream = 4,
            StartReadAheadBytes = 8L * SegmentSize,
            WorkerIdleTimeout = TimeSpan.FromMinutes(5),
            MinimumStragglerDelay = TimeSpan.FromMinutes(5),
        };
        await using var harness = Create(options, Provider(server, maxConnections: 4));

        var playing = await harness.OpenAsync(first);
        await StreamAssert.ReadsExactlyAsync(playing, first, 8 * SegmentSize, Token);
        for (var i = 0; i < 500 && harness.Limiter.GetStats().InUseOf(OperationKind.Streaming) < 4; i++)
        {
            await Task.Delay(10, Token);
        }
        Assert.Equal(4, harness.Limiter.GetStats().InUseOf(OperationKind.Streaming));

        // Opening the second stream and its first read need permits the first stream holds idle.
        var start = Task.Run(async () =>
        {
            await using var starting = await harness.OpenAsync(second);
            await StreamAssert.ReadsExactlyAsync(starting, second, 2 * SegmentSize, Token);
        }, Token);
        await start.WaitAsync(TimeSpan.FromSeconds(30), Token);

        // And the first stream still reads on.
        await StreamAssert.ReadsExactlyAsync(playing, first, 4 * SegmentSize, Token);
        await playing.DisposeAsync();
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_newcomer_starts_while_a_draining_stream_keeps_every_connection_busy()
    {
        // Every answer takes a round trip, so the draining reader always has work queued on all
        // four connections: it never idles, and only the fair share makes room for the newcomer.
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(30));
        var big = server.Store.AddGeneratedFile("big.bin", 4000L * SegmentSize, SegmentSize);
        var small = server.Store.AddGeneratedFile("small.bin", 8L * SegmentSize, SegmentSize);
        var options = new StreamingOptions { ConnectionsPerStream = 4, MinimumStragglerDelay = TimeSpan.FromMinutes(5) };
        await using var harness = Create(options, Provider(server, maxConnections: 4));

        await using var draining = await harness.OpenAsync(big);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var reading = Task.Run(async () =>
        {
            var buffer = new byte[256 * 1024];
            // Only the cancellation ends this loop: the file is far longer than the test reads.
            while (await draining.ReadAsync(buffer, stop.Token) > 0)
            {
            }
        }, Token);
        for (var i = 0; i < 500 && harness.Limiter.GetStats().InUseOf(OperationKind.Streaming) < 4; i++)
        {
            await Task.Delay(10, Token);
        }
        Assert.Equal(4, harness.Limiter.GetStats().InUseOf(OperationKind.Streaming));

        await using (var newcomer = await harness.OpenAsync(small))
        {
            await StreamAssert.ReadsExactlyAsync(newcomer, small, 2 * SegmentSize, Token);
        }
        // The newcomer was served while the draining stream was still far from its end.
        Assert.True(draining.Position < draining.Length / 2, $"the draining stream had read {draining.Position} of {draining.Length} bytes first");
        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => reading);
        await draining.DisposeAsync();
        await harness.AssertAllReturnedAsync();
    }
}
