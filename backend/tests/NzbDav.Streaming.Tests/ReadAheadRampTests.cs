using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Tests;

/// <summary>How far ahead a stream reads when its reader had to wait.</summary>
public sealed class ReadAheadRampTests
{
    private const long PartSize = 16 * 1024;
    private const int Segments = 4096;

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_paced_reader_that_waits_grows_to_a_few_times_its_rates_need_not_to_the_ceiling()
    {
        var ramp = NewRamp();
        for (var i = 0; i < 12; i++)
        {
            // Ten segments a second: its rate needs about 11 segments (the lead plus two fetch
            // latencies), and a wait each segment is a stall being raced, not fetching too slow.
            await Task.Delay(100, Token);
            ramp.OnWaited();
            ramp.OnSegmentConsumed(Segments);
        }

        Assert.InRange(ramp.Span, 2, 4 * 12);
    }

    [Fact]
    public void A_reader_the_fetching_cannot_keep_up_with_doubles_to_the_ceiling()
    {
        var ramp = NewRamp();
        for (var i = 0; i < 12; i++)
        {
            ramp.OnWaited();
            ramp.OnSegmentConsumed(Segments);
        }

        // The automatic ceiling: the target bandwidth over two 50 ms fetch latencies.
        var ceiling = (long)Math.Ceiling(new StreamingOptions().TargetBandwidthBytesPerSecond * 0.1 / PartSize);
        Assert.Equal(ceiling, ramp.Span);
    }

    private static ReadAheadRamp NewRamp()
    {
        var ids = Enumerable.Range(0, Segments).Select(i => $"r{i}@x").ToArray();
        var header = new YencHeader("f", PartSize * Segments, 128, 1, Segments, 0, PartSize);
        var options = new StreamingOptions { RangedStartReadAheadBytes = 2 * PartSize, StartReadAheadBytes = 2 * PartSize };
        var budget = new ReadAheadBudget(() => 1L << 30);
        return new ReadAheadRamp(new SegmentIndex(ids, header), options, new QuietFetcher(), budget, Segments);
    }

    /// <summary>A fetcher whose fetches take 50 ms to their first byte and that is asked nothing else here.</summary>
    private sealed class QuietFetcher : ISegmentFetcher
    {
        public TimeSpan? MedianTimeToFirstByte => TimeSpan.FromMilliseconds(50);

        public void Submit(ArticleRequest request)
        {
        }

        public void Withdraw(ArticleRequest request)
        {
        }

        public void SetHead(ArticleRequest request)
        {
        }

        public void Expedite(ArticleRequest request)
        {
        }

        public void Anticipate(int segments)
        {
        }

        public void Warm(int segments)
        {
        }

        public void Wake()
        {
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
