namespace NzbDav.Streaming;

/// <summary>
/// How far ahead of the reader a stream fetches, in segments, sized to the reader: a reader that
/// had to wait for a segment (it drains the buffer: a copy, rclone's chunk reads) doubles the
/// read-ahead per segment it consumes, up to the ceiling (fixed, or bandwidth × the providers'
/// median time to first byte × 2) and, until its rate is known, to twice what it consumed; a
/// reader that found its segment ready (a paced player) gets what its rate (measured over windows
/// of a second or more) needs to cover the fetch latency plus <see cref="StreamingOptions.ReadAheadLead"/>,
/// and a read-ahead above that shrinks by a segment per segment consumed. A reader that stops
/// consuming stops the fetching. Every stream's read-ahead counts against the host's
/// <see cref="ReadAheadBudget"/>. It also tells the fetcher what the reader is about to want, so
/// connections are open before the read-ahead grows into them. Reader-owned.
/// </summary>
internal sealed class ReadAheadRamp
{
    // After a wait, a reader's read-ahead grows to at most this many times what its rate needs.
    private const int WaitedRateFactor = 4;

    // The reader's rate is measured over at least this long: an HTTP response copies in bursts as
    // the client's socket drains (segments a few microseconds apart, then a pause), so a rate per
    // segment measured a 20 Mbit/s player at over 1 GB/s and gave it 50 segments of read-ahead.
    private static readonly TimeSpan RateWindow = TimeSpan.FromSeconds(1);

    // A window this long with a segment or two in it is a paused reader, not a slow one: no sample.
    private static readonly TimeSpan PauseWindow = TimeSpan.FromSeconds(10);

    private readonly TimeProvider _time;
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
    private long _rateSince;
    private long _rateBytes;
    private int _consumed;
    private double _bytesPerSecond;
    private long _claim;

    public ReadAheadRamp(SegmentIndex index, StreamingOptions options, ISegmentFetcher fetcher, ReadAheadBudget budget, int maxSegments, TimeProvider time)
    {
        _time = time;
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
        _rateSince = 0;
        _rateBytes = 0;
        _consumed = 0;
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
        MeasureRate();
        var ceiling = CeilingSegments();
        int wanted;
        if (_waited)
        {
            wanted = Math.Min(Math.Max(2, _span * 2), ceiling);
            if (_bytesPerSecond == 0)
            {
                // Before the rate is known a reader grows to at most twice what it consumed: a
                // fast reader consumes as fast as the read-ahead doubles anyway, while a player
                // filling its socket buffers at start waits on a few cold fetches, and doubling on
                // each took it to 56 segments (40 MB) that it then played for 16 s.
                wanted = Math.Min(wanted, Math.Max(_span, 2 * _consumed));
            }
            else
            {
                // A wait doubles the read-ahead of a reader the fetching cannot keep up with; a paced
                // player waits only on a late article (a stall being raced), and doubling it each
                // time took five 20 Mbit/s players to the 64 MiB ceiling each: 320 MiB held for
                // seconds of playback that a few times its rate's need covers as well.
                wanted = Math.Min(wanted, Math.Max(_span, WaitedRateFactor * RateSegments()));
            }
        }
        else if (_bytesPerSecond == 0)
        {
            // The rate is not known yet and the fetching keeps ahead: nothing asks for more.
            wanted = _span;
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

    /// <summary>Counts a consumed segment toward the reader's rate: bytes over a window of at least <see cref="RateWindow"/>, smoothed over windows.</summary>
    private void MeasureRate()
    {
        _consumed++;
        var now = _time.GetTimestamp();
        if (_rateSince == 0)
        {
            // The first segment after opening or seeking: it took a fetch, not the reader's pace.
            _rateSince = now;
            return;
        }
        _rateBytes += _partSize;
        var elapsed = _time.GetElapsedTime(_rateSince, now);
        if (elapsed < RateWindow)
        {
            return;
        }
        if (elapsed < PauseWindow || _rateBytes > 2 * _partSize)
        {
            var sample = _rateBytes / elapsed.TotalSeconds;
            _bytesPerSecond = _bytesPerSecond == 0 ? sample : (0.5 * _bytesPerSecond) + (0.5 * sample);
        }
        _rateSince = now;
        _rateBytes = 0;
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
