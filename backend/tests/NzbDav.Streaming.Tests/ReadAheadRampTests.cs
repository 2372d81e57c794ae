using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming.Tests;

/// <summary>How far ahead a stream reads when its reader had to wait.</summary>
public sealed class ReadAheadRampTests
{
    private const long PartSize = 16 * 1024;
    private const int Segments = 4096;

    [Fact]
    public void A_paced_reader_that_waits_grows_to_a_few_times_its_rates_need_not_to_the_ceiling()
    {
        var clock = new FakeTimeProvider();
        var ramp = NewRamp(clock);
        for (var i = 0; i < 30; i++)
        {
            // Ten segments a second: its rate needs about 11 segments (the lead plus two fetch
            // latencies), and a wait each segment is a stall being raced, not fetching too slow.
            clock.Advance(TimeSpan.FromMilliseconds(100));
            ramp.OnWaited();
            ramp.OnSegmentConsumed(Segments);
        }

        Assert.InRange(ramp.Span, 2, 4 * 12);
    }

    [Fact]
    public void A_paced_reader_served_in_bursts_is_fitted_to_its_average_rate()
    {
        // An HTTP response copies as the client's socket drains: five segments within a
        // millisecond, then half a second of nothing. Ten segments a second on average need about
        // 11 segments of read-ahead; measured per segment the bursts read as thousands a second.
        var clock = new FakeTimeProvider();
        var ramp = NewRamp(clock);
        for (var burst = 0; burst < 12; burst++)
        {
            for (var i = 0; i < 5; i++)
            {
                clock.Advance(TimeSpan.FromTicks(2_000));
                ramp.OnSegmentConsumed(Segments);
            }
            clock.Advance(TimeSpan.FromMilliseconds(500));
        }

        Assert.InRange(ramp.Span, 4, 2 * 12);
    }

    [Fact]
    public void Before_its_rate_is_known_a_waiting_reader_grows_to_at_most_twice_what_it_consumed()
    {
        // A player filling its socket buffers at start waits on cold fetches segment after segment.
        var clock = new FakeTimeProvider();
        var ramp = NewRamp(clock);
        for (var i = 0; i < 6; i++)
        {
            clock.Advance(TimeSpan.FromMilliseconds(20));
            ramp.OnWaited();
            ramp.OnSegmentConsumed(Segments);
        }

        Assert.InRange(ramp.Span, 2, 12);
    }

    [Fact]
    public void A_reader_the_fetching_cannot_keep_up_with_doubles_to_the_ceiling()
    {
        var clock = new FakeTimeProvider();
        var ramp = NewRamp(clock);
        for (var i = 0; i < 1_100; i++)
        {
            // Each segment drained the moment it arrived: the reader is as fast as the fetching
            // (a thousand segments a second, measured once a second has passed).
            clock.Advance(TimeSpan.FromMilliseconds(1));
            ramp.OnWaited();
            ramp.OnSegmentConsumed(Segments);
        }

        // The automatic ceiling: the target bandwidth over two 50 ms fetch latencies.
        var ceiling = (long)Math.Ceiling(new StreamingOptions().TargetBandwidthBytesPerSecond * 0.1 / PartSize);
        Assert.Equal(ceiling, ramp.Span);
    }

    private static ReadAheadRamp NewRamp(TimeProvider clock)
    {
        var ids = Enumerable.Range(0, Segments).Select(i => $"r{i}@x").ToArray();
        var header = new YencHeader("f", PartSize * Segments, 128, 1, Segments, 0, PartSize);
        var options = new StreamingOptions { RangedStartReadAheadBytes = 2 * PartSize, StartReadAheadBytes = 2 * PartSize };
        var budget = new ReadAheadBudget(() => 1L << 30, clock);
        return new ReadAheadRamp(new SegmentIndex(ids, header), options, new QuietFetcher(), budget, Segments, clock);
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
