using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Cancellation, disposal, idle connections and the connection cap.</summary>
public sealed class LifetimeTests
{
    private const int SegmentSize = 32 * 1024;

    [Fact]
    public async Task A_cancelled_read_throws_and_the_stream_stays_usable()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(300));
        var file = server.Store.AddGeneratedFile("cancel.bin", 10L * SegmentSize, SegmentSize);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            stream.Position = 5L * SegmentSize;
            using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);
            var read = stream.ReadAsync(new byte[1000], cancel.Token).AsTask();
            Assert.False(read.IsCompleted); // waiting for the segment to arrive
            await cancel.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => read);

            await StreamAssert.ReadsExactlyAsync(stream, file, 1000, Token);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Disposing_mid_flight_returns_every_lease_and_buffer()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(20));
        var file = server.Store.AddGeneratedFile("dispose.bin", 200L * SegmentSize, SegmentSize);
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 6 }, Provider(server, maxConnections: 6));

        var stream = await harness.OpenAsync(file);
        await StreamAssert.ReadsExactlyAsync(stream, file, 40 * SegmentSize, Token);
        Assert.True(harness.Pool.Outstanding > 0);
        Assert.True(harness.Limiter.GetStats().InUse > 0);
        var pending = stream.ReadAsync(new byte[SegmentSize * 4], Token).AsTask();
        await stream.DisposeAsync();
        await Assert.ThrowsAnyAsync<Exception>(async () =>
        {
            // Whatever the pending read got, the stream is now closed.
            await pending;
            _ = await stream.ReadAsync(new byte[10], Token);
        });

        await harness.AssertAllReturnedAsync();
        Assert.False(stream.CanRead);
        Assert.Throws<ObjectDisposedException>(() => stream.Seek(0, SeekOrigin.Begin));
    }

    [Fact]
    public async Task An_idle_stream_gives_its_connections_back()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.AddGeneratedFile("idle.bin", 40L * SegmentSize, SegmentSize);
        await using var harness = Create(new StreamingOptions { WorkerIdleTimeout = TimeSpan.FromMilliseconds(100) }, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 12 * SegmentSize, Token);
            for (var i = 0; i < 400 && (stream.Statistics.LeasesHeld > 0 || harness.Limiter.GetStats().InUse > 0); i++)
            {
                await Task.Delay(25, Token);
            }
            Assert.Equal(0, stream.Statistics.LeasesHeld);
            Assert.Equal(0, harness.Limiter.GetStats().InUse);

            // ...and takes them again when the reader comes back.
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 50_000, Token);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Two_streams_never_exceed_the_providers_connection_cap()
    {
        await using var server = await StartServerAsync(maxConnections: 3, latency: TimeSpan.FromMilliseconds(3));
        var first = server.Store.AddGeneratedFile("cap-1.bin", 60L * SegmentSize, SegmentSize);
        var second = server.Store.AddGeneratedFile("cap-2.bin", (45L * SegmentSize) + 3, SegmentSize);
        await using var harness = Create(new StreamingOptions { ConnectionsPerStream = 8 }, Provider(server, maxConnections: 3));

        await Task.WhenAll(ReadAllAsync(first), ReadAllAsync(second));

        Assert.InRange(server.Stats.PeakConnections, 1, 3);
        Assert.Equal(0, server.Stats.RejectedConnections);
        await harness.AssertAllReturnedAsync();

        async Task ReadAllAsync(NzbDav.MockNntp.Articles.MockFile file)
        {
            await using var stream = await harness.OpenAsync(file);
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 30_000, Token);
        }
    }

    [Fact]
    public async Task A_second_concurrent_read_is_refused()
    {
        await using var server = await StartServerAsync(latency: TimeSpan.FromMilliseconds(200));
        var file = server.Store.AddGeneratedFile("concurrent.bin", 4L * SegmentSize, SegmentSize);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            stream.Position = 2L * SegmentSize;
            var first = stream.ReadAsync(new byte[100], Token).AsTask();
            await Assert.ThrowsAsync<InvalidOperationException>(() => stream.ReadAsync(new byte[100], Token).AsTask());
            Assert.Throws<InvalidOperationException>(() => stream.Seek(0, SeekOrigin.Begin));
            Assert.Equal(100, await first);
        }

        await harness.AssertAllReturnedAsync();
    }
}
