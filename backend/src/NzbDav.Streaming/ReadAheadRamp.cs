using System.Diagnostics;

namespace NzbDav.Streaming;

/// <summary>
/// How far ahead of the reader a stream fetches, in segments, sized to the reader: a reader that
/// had to wait for a segment (it drains the buffer: a copy, rclone's chunk reads) doubles the
/// read-ahead per segment it consumes, up to the ceiling (fixed, or bandwidth × the providers'
/// median time to first byte × 2); a reader that found its segment ready (a paced player) gets
/// what its measured rate needs to cover the fetch latency plus <see cref="StreamingOptions.ReadAheadLead"/>,
/// and a read-ahead above that shrinks by a segment per segment consumed. A reader that stops
/// consuming stops the fetching. Every stream's read-ahead counts against the host's
/// <see cref="ReadAheadBudget"/>. It also tells the fetcher what the reader is about to want, so
/// connections are open before the read-ahead grows into them. Reader-owned.
/// </summary>
internal sealed class ReadAheadRamp
{
    // After a wait, a reader's read-ahead grows to at most this many times what its rate needs.
    private const int WaitedRateFactor = 4;

    private readonly StreamingOptions _options;
    private readonly ISegmentFetcher _fetcher;
    private readonly ReadAheadBudget _budget;
    private readonly int _maxSegments;
    private readonly long _partSize;
    private int _span;
    private int _readsSinceSeek;
    private bool _openedAtStart;
    private bool _anticipating;
    private bool _waited;
    private long _lastConsumedAt;
    private double _bytesPerSecond;
    private long _claim;

    public ReadAheadRamp(SegmentIndex index, StreamingOptions options, ISegmentFetcher fetcher, ReadAheadBudget budget, int maxSegments)
    {
        _options = options;
        _fetcher = fetcher;
        _budget = budget;
        _maxSegments = maxSegments;
        _partSize = SegmentWindow.AveragePartSize(index);
        // Opened to be read from the start: the first read asks for the start read-ahead (after a
        // seek, for one segment, growing as the reader proves it streams).
        Reset();
        SetSpan(StartSegments());
        _openedAtStart = true;
    }

    /// <summary>Segments the window spans ahead of the reader now.</summary>
    public int Span => _span;

    /// <summary>A seek left the window: start small again (the reader's rate is kept: a player resumes at it).</summary>
    public void Reset()
    {
        _openedAtStart = false;
        _anticipating = false;
        _waited = false;
        _lastConsumedAt = 0;
        SetSpan(1);
        _readsSinceSeek = 0;
        _fetcher.Anticipate(0);
    }

    /// <summary>The stream closed: its claim on the budget goes back.</summary>
    public void Release()
    {
        _claim = _budget.Claim(_claim, 0, 0);
        _span = 1;
    }

    /// <summary>
    /// A first read from the start of a new stream (playback starting) or a second read without a
    /// seek shows the reader goes on: fetch at least the next segment too, and start opening
    /// connections for the read-ahead it is likely to grow into. Any first read after opening or
    /// seeking warms the pool: playback usually resumes where a player seeks.
    /// </summary>
    public void OnReadStarted(long position, int segmentsToLimit)
    {
        var readsSinceSeek = ++_readsSinceSeek;
        if (readsSinceSeek == 1)
        {
            _fetcher.Warm(Math.Min(CeilingSegments(), segmentsToLimit));
        }
        if ((readsSinceSeek > 1 || (_openedAtStart && position == 0)) && !_anticipating)
        {
            SetSpan(Math.Max(_span, 2));
            _anticipating = true;
            _fetcher.Anticipate(Math.Min(CeilingSegments(), segmentsToLimit));
        }
    }

    /// <summary>The reader had to wait for a segment: the fetching is behind it.</summary>
    public void OnWaited() => _waited = true;

    /// <summary>The reader finished a segment: grow for a draining reader, fit a paced one.</summary>
    public void OnSegmentConsumed(int segmentsToLimit)
    {
        var now = Stopwatch.GetTimestamp();
        if (_lastConsumedAt != 0)
        {
            var seconds = Stopwatch.GetElapsedTime(_lastConsumedAt, now).TotalSeconds;
            var sample = _partSize / Math.Max(seconds, 1e-6);
            _bytesPerSecond = _bytesPerSecond == 0 ? sample : (0.75 * _bytesPerSecond) + (0.25 * sample);
        }
        _lastConsumedAt = now;
        var ceiling = CeilingSegments();
        int wanted;
        if (_waited || _bytesPerSecond == 0)
        {
            wanted = Math.Min(Math.Max(2, _span * 2), ceiling);
            if (_bytesPerSecond > 0)
            {
                // A wait doubles the read-ahead of a reader the fetching cannot keep up with; a paced
                // player waits only on a late article (a stall being raced), and doubling it each
                // time took five 20 Mbit/s players to the 64 MiB ceiling each: 320 MiB held for
                // seconds of playback that a few times its rate's need covers as well.
                wanted = Math.Min(wanted, Math.Max(_span, WaitedRateFactor * RateSegments()));
            }
        }
        else
        {
            var target = Math.Min(RateSegments(), ceiling);
            wanted = _span > target ? Math.Max(target, _span - 1) : target;
        }
        if (_budget.IsOverShare(_claim))
        {
            // Others need the room: give back a segment per segment consumed.
            wanted = Math.Min(wanted, Math.Max(_options.MinReadAheadSegments, _span - 1));
        }
        _waited = false;
        SetSpan(wanted);
        // The reader streams: while the read-ahead grows, have connections ready for all of it
        // before it gets there; once grown, demand speaks for itself.
        _fetcher.Anticipate(_span < ceiling ? Math.Min(ceiling, segmentsToLimit) : 0);
    }

    private void SetSpan(int segments)
    {
        var floor = Math.Min(segments, _options.MinReadAheadSegments) * _partSize;
        _claim = _budget.Claim(_claim, segments * _partSize, floor);
        _span = (int)Math.Clamp(_claim / _partSize, 1, Math.Max(1, segments));
    }

    /// <summary>What the measured rate needs: the bytes it consumes over two fetch latencies plus the lead.</summary>
    private int RateSegments()
    {
        var latency = _fetcher.MedianTimeToFirstByte ?? TimeSpan.FromMilliseconds(50);
        var bytes = _bytesPerSecond * ((2 * latency.TotalSeconds) + _options.ReadAheadLead.TotalSeconds);
        var segments = (long)Math.Ceiling(bytes / _partSize);
        return (int)Math.Clamp(segments, _options.MinReadAheadSegments, _maxSegments);
    }

    /// <summary>The most read-ahead a reader may grow to: the byte ceiling (fixed, or bandwidth × latency × 2) over the part size.</summary>
    private int CeilingSegments()
    {
        long bytes;
        if (_options.MaxReadAheadBytes is { } fixedBytes)
        {
            bytes = fixedBytes;
        }
        else
        {
            var latency = _fetcher.MedianTimeToFirstByte ?? TimeSpan.FromMilliseconds(50);
            bytes = (long)(_options.TargetBandwidthBytesPerSecond * latency.TotalSeconds * 2);
            bytes = Math.Min(bytes, StreamingOptions.ReadAheadCeilingBytes);
        }
        var segments = (bytes + _partSize - 1) / _partSize;
        return (int)Math.Clamp(segments, _options.MinReadAheadSegments, _maxSegments);
    }

    /// <summary>The start read-ahead in segments: at least two, at most the ceiling.</summary>
    private int StartSegments()
    {
        var segments = (_options.StartReadAheadBytes + _partSize - 1) / _partSize;
        return (int)Math.Clamp(segments, 2, Math.Max(2, CeilingSegments()));
    }
}
