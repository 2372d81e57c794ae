using NzbDav.Streaming.Combined;

namespace NzbDav.Streaming.Tests.Combined;

/// <summary>What a combined stream says it fetched and took shared: every inner stream it opened, the closed ones included.</summary>
public sealed class CombinedStreamTotalsTests
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Totals_sum_the_open_inner_streams_and_keep_those_already_closed()
    {
        var opened = new List<CountingStream>();
        CombinedStreamPart Part(int fetched, int shared) => new(
            _ =>
            {
                var stream = new CountingStream(new byte[1_000], fetched, shared);
                opened.Add(stream);
                return ValueTask.FromResult<Stream>(stream);
            },
            0,
            1_000);

        var stream = new CombinedStream([Part(100, 1), Part(20_000, 20), Part(3_000_000, 300)], new CombinedStreamOptions { MaxOpenStreams = 1 });
        Assert.Equal(0, stream.BytesFetched);
        Assert.Equal(0, stream.BytesShared);

        var buffer = new byte[10];
        await stream.ReadExactlyAsync(buffer, Token);
        opened[0].Fetched += 5;
        Assert.Equal(105, stream.BytesFetched);

        // Part 2 evicts part 1's stream (one open at most): what it had counted stays.
        stream.Position = 1_500;
        await stream.ReadExactlyAsync(buffer, Token);
        Assert.True(opened[0].IsDisposed);
        Assert.Equal(105 + 20_000, stream.BytesFetched);
        Assert.Equal(1 + 20, stream.BytesShared);
        // Counted once, when it closed: later changes of a closed stream do not move the totals.
        opened[0].Fetched += 1_000_000;
        Assert.Equal(105 + 20_000, stream.BytesFetched);

        // Back to part 1: a fresh stream, counted on top of the first one.
        stream.Position = 0;
        await stream.ReadExactlyAsync(buffer, Token);
        stream.Position = 2_000;
        await stream.ReadExactlyAsync(buffer, Token);
        Assert.Equal(4, opened.Count);
        Assert.Equal(105 + 20_000 + 100 + 3_000_000, stream.BytesFetched);
        Assert.Equal(1 + 20 + 1 + 300, stream.BytesShared);

        await stream.DisposeAsync();
        Assert.All(opened, s => Assert.True(s.IsDisposed));
        Assert.Equal(105 + 20_000 + 100 + 3_000_000, stream.BytesFetched);
        Assert.Equal(1 + 20 + 1 + 300, stream.BytesShared);
    }

    [Fact]
    public async Task Inner_streams_that_cannot_say_count_nothing()
    {
        var parts = new TrackedParts().Add(new Random(30), 100, 0, 100).Add(new Random(31), 100, 0, 100);
        var stream = new CombinedStream(parts.Parts);
        await stream.ReadExactlyAsync(new byte[150], Token);
        Assert.Equal(0, stream.BytesFetched);
        Assert.Equal(0, stream.BytesShared);
        stream.Dispose();
        Assert.Equal(0, stream.BytesFetched);
    }

    private sealed class CountingStream(byte[] data, long fetched, long shared) : MemoryStream(data, writable: false), IReadAheadSource
    {
        public bool IsDisposed { get; private set; }

        public long Fetched { get; set; } = fetched;

        public long BytesAhead => 0;

        public long BytesFetched => Fetched;

        public long BytesShared => shared;

        protected override void Dispose(bool disposing)
        {
            IsDisposed = true;
            base.Dispose(disposing);
        }
    }
}
