namespace NzbDav.Streaming;

/// <summary>
/// How far ahead of the reader a stream fetches, in segments. Bounded in bytes (fixed, or bandwidth
/// × the providers' median time to first byte × 2); a stream opened at the start asks for the start
/// read-ahead at once, a seek drops back to one segment, and each consumed segment doubles it up to
/// the budget. It also tells the fetcher what the reader is about to want, so connections are open
/// before the read-ahead grows into them. Reader-owned.
/// </summary>
internal sealed class ReadAheadRamp
{
    private readonly SegmentIndex _index;
    private readonly StreamingOptions _options;
    private readonly ISegmentFetcher _fetcher;
    private readonly int _maxSegments;
    private int _span;
    private int _readsSinceSeek;
    private bool _openedAtStart;
    private bool _anticipating;

    public ReadAheadRamp(SegmentIndex index, StreamingOptions options, ISegmentFetcher fetcher, int maxSegments)
    {
        _index = index;
        _options = options;
        _fetcher = fetcher;
        _maxSegments = maxSegments;
        // Opened to be read from the start: the first read asks for the start read-ahead (after a
        // seek, for one segment, growing as the reader proves it streams).
        Reset();
        _span = StartSegments();
        _openedAtStart = true;
    }

    /// <summary>Segments the window spans ahead of the reader now.</summary>
    public int Span => _span;

    /// <summary>A seek left the window: start small again.</summary>
    public void Reset()
    {
        _openedAtStart = false;
        _anticipating = false;
        _span = 1;
        _readsSinceSeek = 0;
        _fetcher.Anticipate(0);
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
            _fetcher.Warm(Math.Min(BudgetSegments(), segmentsToLimit));
        }
        if ((readsSinceSeek > 1 || (_openedAtStart && position == 0)) && !_anticipating)
        {
            _span = Math.Max(_span, 2);
            _anticipating = true;
            _fetcher.Anticipate(Math.Min(BudgetSegments(), segmentsToLimit));
        }
    }

    /// <summary>The reader finished a segment: double the read-ahead, up to the byte budget.</summary>
    public void OnSegmentConsumed(int segmentsToLimit)
    {
        var budget = BudgetSegments();
        _span = Math.Min(Math.Max(2, _span * 2), budget);
        // The reader streams: while the read-ahead grows, have connections ready for all of it
        // before it gets there; once grown, demand speaks for itself.
        _fetcher.Anticipate(_span < budget ? Math.Min(budget, segmentsToLimit) : 0);
    }

    /// <summary>Read-ahead in segments now: the byte budget (fixed, or bandwidth × latency × 2) over the part size.</summary>
    private int BudgetSegments()
    {
        var partSize = SegmentWindow.AveragePartSize(_index);
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
        var segments = (bytes + partSize - 1) / partSize;
        return (int)Math.Clamp(segments, _options.MinReadAheadSegments, _maxSegments);
    }

    /// <summary>The start read-ahead in segments: at least two, at most the byte budget.</summary>
    private int StartSegments()
    {
        var partSize = SegmentWindow.AveragePartSize(_index);
        var segments = (_options.StartReadAheadBytes + partSize - 1) / partSize;
        return (int)Math.Clamp(segments, 2, Math.Max(2, BudgetSegments()));
    }
}
