using NzbDav.Streaming.Tests.Support;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Tests;

/// <summary>The pieces under the ordering path: the reader's signal, segment buffers, tickets.</summary>
public sealed class SlotPrimitivesTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_signal_set_before_the_wait_lets_exactly_one_wait_through()
    {
        var signal = new AsyncSignal();
        signal.Set();
        signal.Set();

        await signal.WaitAsync(Token);
        var second = signal.WaitAsync(Token).AsTask();

        Assert.False(second.IsCompleted);
        signal.Set();
        await second;
    }

    [Fact]
    public async Task A_cancelled_wait_throws_and_the_signal_still_works()
    {
        var signal = new AsyncSignal();
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var waiting = signal.WaitAsync(cancel.Token).AsTask();

        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => waiting);
        var next = signal.WaitAsync(Token).AsTask();
        signal.Set();
        await next;
    }

    [Fact]
    public void A_buffer_spans_chunks_and_returns_each_once_when_the_last_reference_goes()
    {
        var pool = new CountingArrayPool();
        var data = new byte[(2 * SegmentBuffer.ChunkSize) + 1000];
        new Random(1).NextBytes(data);
        var buffer = new SegmentBuffer(pool, null);

        buffer.Begin(new YencHeader("x", data.Length, 128, 1, 1, 0, data.Length));
        for (var written = 0; written < data.Length;)
        {
            var span = buffer.GetSpan();
            var count = Math.Min(span.Length, Math.Min(5000, data.Length - written));
            data.AsSpan(written, count).CopyTo(span);
            buffer.Advance(count);
            written += count;
        }
        buffer.Complete(new YencTrailer(data.Length, 1, null, null));

        Assert.Equal(3, pool.Outstanding);
        var copy = new byte[data.Length - 7];
        buffer.CopyTo(7, copy);
        Assert.True(copy.AsSpan().SequenceEqual(data.AsSpan(7)));

        Assert.True(buffer.TryAddReference());
        buffer.Release();
        Assert.Equal(3, pool.Outstanding);
        buffer.Release();
        Assert.Equal(0, pool.Outstanding);
        Assert.False(buffer.TryAddReference());
        Assert.Throws<InvalidOperationException>(buffer.Release);
    }

    [Fact]
    public void A_part_that_ends_short_of_its_header_is_rejected()
    {
        var buffer = new SegmentBuffer(new CountingArrayPool(), null);
        buffer.Begin(new YencHeader("x", 100, 128, 1, 1, 0, 100));
        buffer.GetSpan()[..60].Clear();
        buffer.Advance(60);

        Assert.Throws<YencException>(() => buffer.Complete(new YencTrailer(60, 1, null, null)));
        Assert.Throws<YencException>(() => new SegmentBuffer(new CountingArrayPool(), null).Begin(new YencHeader("x", 1L << 40, 128, 1, 1, 0, 1L << 30)));
    }

    [Fact]
    public void Options_name_the_setting_that_is_out_of_range()
    {
        new StreamingOptions().Validate();
        var error = Assert.Throws<ArgumentException>(() => new StreamingOptions { ConnectionsPerStream = 0 }.Validate());
        Assert.Contains(nameof(StreamingOptions.ConnectionsPerStream), error.Message);
        error = Assert.Throws<ArgumentException>(() => new StreamingOptions { MaxReadAheadBytes = StreamingOptions.ReadAheadCeilingBytes + 1 }.Validate());
        Assert.Contains(nameof(StreamingOptions.MaxReadAheadBytes), error.Message);
    }
}
