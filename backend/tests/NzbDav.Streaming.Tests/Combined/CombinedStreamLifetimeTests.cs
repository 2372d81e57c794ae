using NzbDav.Streaming.Combined;

namespace NzbDav.Streaming.Tests.Combined;

public sealed class CombinedStreamLifetimeTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Seeking_back_into_an_evicted_part_opens_a_fresh_stream_and_never_touches_the_disposed_one()
    {
        // Seed bug #3: a cached open task kept handing out a stream that had already been disposed.
        var random = new Random(20);
        var parts = new TrackedParts().Add(random, 1_000, 0, 1_000).Add(random, 1_000, 0, 1_000).Add(random, 1_000, 0, 1_000);
        await using var stream = new CombinedStream(parts.Parts, new CombinedStreamOptions { MaxOpenStreams = 1 });
        var buffer = new byte[100];

        await stream.ReadExactlyAsync(buffer, Token);
        stream.Position = 1_500;
        await stream.ReadExactlyAsync(buffer, Token);
        Assert.True(parts.OpenedFor(0)[0].IsDisposed);

        for (var round = 0; round < 3; round++)
        {
            stream.Position = 200 + round;
            await stream.ReadExactlyAsync(buffer, Token);
            Assert.Equal(parts.Expected.AsSpan(200 + round, 100).ToArray(), buffer);
            stream.Position = 2_500;
            await stream.ReadExactlyAsync(buffer, Token);
            Assert.Equal(parts.Expected.AsSpan(2_500, 100).ToArray(), buffer);
        }

        Assert.Equal(4, parts.OpenedFor(0).Count);
        Assert.All(parts.AllOpened, s => Assert.Equal(0, s.ReadsAfterDispose));
        Assert.Equal(1, parts.AllOpened.Count(s => !s.IsDisposed));
    }

    [Fact]
    public async Task The_least_recently_used_stream_is_the_one_evicted()
    {
        var random = new Random(21);
        var parts = new TrackedParts().Add(random, 100, 0, 100).Add(random, 100, 0, 100).Add(random, 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts, new CombinedStreamOptions { MaxOpenStreams = 2 });
        var one = new byte[1];

        foreach (var position in new long[] { 0, 100, 1, 200 })
        {
            stream.Position = position;
            await stream.ReadExactlyAsync(one, Token);
        }

        Assert.False(parts.OpenedFor(0)[0].IsDisposed);
        Assert.True(parts.OpenedFor(1)[0].IsDisposed);
        Assert.False(parts.OpenedFor(2)[0].IsDisposed);
        Assert.Equal(3, stream.StreamsOpened);
    }

    [Fact]
    public async Task Dispose_disposes_every_open_inner_stream()
    {
        var random = new Random(22);
        var parts = new TrackedParts().Add(random, 100, 0, 100).Add(random, 100, 0, 100);
        var stream = new CombinedStream(parts.Parts);
        await stream.ReadExactlyAsync(new byte[150], Token);

        await stream.DisposeAsync();

        Assert.Equal(2, parts.AllOpened.Count());
        Assert.All(parts.AllOpened, s => Assert.True(s.IsDisposed));
        Assert.Throws<ObjectDisposedException>(() => stream.Position);
        await Assert.ThrowsAsync<ObjectDisposedException>(async () => _ = await stream.ReadAsync(new byte[1], Token));
        Assert.False(stream.CanRead);
    }

    [Fact]
    public void Synchronous_dispose_also_disposes_the_inner_streams()
    {
        var parts = new TrackedParts().Add(new Random(23), 100, 0, 100);
        var stream = new CombinedStream(parts.Parts);
        stream.ReadExactly(new byte[10]);

        stream.Dispose();

        Assert.True(parts.OpenedFor(0)[0].IsDisposed);
    }

    [Fact]
    public async Task An_inner_stream_that_ends_early_is_a_clear_error_and_is_not_reused()
    {
        var random = new Random(24);
        var parts = new TrackedParts().Add(random, 100, 0, 100, seekable: false, endAfter: 60);
        await using var stream = new CombinedStream(parts.Parts);
        var buffer = new byte[100];

        var error = await Assert.ThrowsAsync<EndOfStreamException>(async () => await stream.ReadExactlyAsync(buffer, Token));

        Assert.Contains("Part 0 ended after 60 of its 100 bytes", error.Message, StringComparison.Ordinal);
        Assert.True(parts.OpenedFor(0)[0].IsDisposed);
        Assert.Equal(0, stream.OpenStreamCount);
    }

    [Fact]
    public async Task A_part_beyond_a_seekable_inner_stream_is_rejected_when_opened()
    {
        var parts = new TrackedParts().Add(new Random(25), 100, 50, 60);
        await using var stream = new CombinedStream(parts.Parts);

        var error = await Assert.ThrowsAsync<InvalidDataException>(async () => _ = await stream.ReadAsync(new byte[1], Token));

        Assert.Contains("only 100 bytes", error.Message, StringComparison.Ordinal);
        Assert.True(parts.OpenedFor(0)[0].IsDisposed);
    }

    [Fact]
    public async Task A_forward_only_inner_stream_is_reopened_to_go_back()
    {
        var random = new Random(26);
        var parts = new TrackedParts().Add(random, 500, 100, 400, seekable: false);
        await using var stream = new CombinedStream(parts.Parts);
        var buffer = new byte[50];

        stream.Position = 300;
        await stream.ReadExactlyAsync(buffer, Token);
        stream.Position = 350;
        await stream.ReadExactlyAsync(buffer, Token);
        Assert.Single(parts.OpenedFor(0));

        stream.Position = 10;
        await stream.ReadExactlyAsync(buffer, Token);

        Assert.Equal(parts.Expected.AsSpan(10, 50).ToArray(), buffer);
        Assert.Equal(2, parts.OpenedFor(0).Count);
        Assert.True(parts.OpenedFor(0)[0].IsDisposed);
    }

    [Fact]
    public async Task A_cancelled_read_throws_and_the_next_read_works()
    {
        var parts = new TrackedParts().Add(new Random(27), 100, 0, 100);
        await using var stream = new CombinedStream(parts.Parts);
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => _ = await stream.ReadAsync(new byte[10], cancelled.Token));
        var buffer = new byte[10];
        await stream.ReadExactlyAsync(buffer, Token);

        Assert.Equal(parts.Expected.AsSpan(0, 10).ToArray(), buffer);
    }

    [Fact]
    public async Task A_second_operation_while_a_read_is_in_flight_is_refused()
    {
        var gate = new TaskCompletionSource<Stream>(TaskCreationOptions.RunContinuationsAsynchronously);
        var part = new CombinedStreamPart(_ => new ValueTask<Stream>(gate.Task), 0, 10);
        await using var stream = new CombinedStream([part]);

        var pending = stream.ReadAsync(new byte[5], Token).AsTask();
        await Assert.ThrowsAsync<InvalidOperationException>(async () => _ = await stream.ReadAsync(new byte[5], Token));
        Assert.Throws<InvalidOperationException>(() => stream.Seek(3, SeekOrigin.Begin));
        gate.SetResult(new MemoryStream(new byte[10]));

        Assert.Equal(5, await pending);
        Assert.Equal(5, stream.Position);
    }

    [Fact]
    public async Task A_factory_that_returns_null_is_a_clear_error()
    {
        var part = new CombinedStreamPart(_ => ValueTask.FromResult<Stream>(null!), 0, 10);
        await using var stream = new CombinedStream([part]);

        var error = await Assert.ThrowsAsync<InvalidOperationException>(async () => _ = await stream.ReadAsync(new byte[5], Token));

        Assert.Contains("part 0 returned null", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Bad_parts_and_options_are_rejected_up_front()
    {
        Func<CancellationToken, ValueTask<Stream>> open = _ => ValueTask.FromResult<Stream>(new MemoryStream());
        Assert.Throws<ArgumentOutOfRangeException>(() => new CombinedStreamPart(open, -1, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CombinedStreamPart(open, 0, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CombinedStreamPart(open, long.MaxValue, 1));
        Assert.Throws<ArgumentException>(() => new CombinedStream([new CombinedStreamPart(open, 0, long.MaxValue), new CombinedStreamPart(open, 0, 1)]));
        Assert.Throws<ArgumentException>(() => new CombinedStream([null!]));
        Assert.Throws<ArgumentException>(() => new CombinedStream([], new CombinedStreamOptions { MaxOpenStreams = 0 }));
    }
}
