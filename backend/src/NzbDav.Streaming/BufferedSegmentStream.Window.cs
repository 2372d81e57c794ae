namespace NzbDav.Streaming;

// The read window: a ring of ticket slots for the segments from a little behind the reader to the
// read-ahead limit. Only the reader thread changes it.
public sealed partial class BufferedSegmentStream
{
    private const int MaxRingSegments = 4096;

    private readonly SegmentTicket?[] _ring;
    private readonly int _mask;
    private readonly int _maxWindowSegments;
    private int _windowStart;
    private int _windowEnd;
    private int _ramp;
    private int _readsSinceSeek;
    private bool _openedAtStart;
    private bool _anticipating;
    private int _limitSegment = int.MaxValue;

    private static int MaxWindowSegments(SegmentIndex index, StreamingOptions options)
    {
        var ceiling = options.MaxReadAheadBytes ?? StreamingOptions.ReadAheadCeilingBytes;
        var segments = (ceiling + AveragePartSize(index) - 1) / AveragePartSize(index);
        return (int)Math.Clamp(segments, options.MinReadAheadSegments, Math.Max(options.MinReadAheadSegments, MaxRingSegments));
    }

    private static long AveragePartSize(SegmentIndex index) =>
        index.IsRegular ? index.PartSize : Math.Max(1, index.FileSize / index.Count);

    /// <summary>Read-ahead in segments now: the byte budget (fixed, or bandwidth × latency × 2) over the part size.</summary>
    private int BudgetSegments()
    {
        var partSize = AveragePartSize(_index);
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
        return (int)Math.Clamp(segments, _options.MinReadAheadSegments, _maxWindowSegments);
    }

    /// <summary>
    /// The reader will not read past <paramref name="end"/> (a file offset, exclusive), so nothing
    /// beyond it is fetched ahead. Reads past it still work, fetching on demand. A WebDAV GET for a
    /// byte range sets this: a scanner's 64 KiB header read then costs one segment, not the start
    /// read-ahead. Call it from the reader's side, like reads and seeks.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="end"/> is negative.</exception>
    public void LimitReadAhead(long end)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(end);
        // Where parts vary in size the segment of an offset is not known without fetching: no limit.
        _limitSegment = end >= Length || !_index.IsRegular ? int.MaxValue : (int)((Math.Max(end, 1) - 1) / _index.PartSize) + 1;
    }

    /// <summary>Segments from the reader's position up to the read-ahead limit (at least one).</summary>
    private int SegmentsToLimit() =>
        _limitSegment == int.MaxValue ? int.MaxValue : Math.Max(1, _limitSegment - (int)(_position / _index.PartSize));

    /// <summary>The start read-ahead in segments: at least two, at most the byte budget.</summary>
    private int StartRampSegments()
    {
        var partSize = AveragePartSize(_index);
        var segments = (_options.StartReadAheadBytes + partSize - 1) / partSize;
        return (int)Math.Clamp(segments, 2, Math.Max(2, BudgetSegments()));
    }

    private void ResetRamp()
    {
        _openedAtStart = false;
        _anticipating = false;
        _ramp = 1;
        _readsSinceSeek = 0;
        _fetcher.Anticipate(0);
    }

    /// <summary>
    /// A first read from the start of a new stream (playback starting) or a second read without a
    /// seek shows the reader goes on: fetch at least the next segment too, and start opening connections for
    /// the read-ahead it is likely to grow into (connecting costs a round trip or two). Any first
    /// read after opening or seeking warms the pool: playback usually resumes where a player seeks.
    /// </summary>
    private void OnReadStarted()
    {
        var readsSinceSeek = ++_readsSinceSeek;
        if (readsSinceSeek == 1)
        {
            _fetcher.Warm(Math.Min(BudgetSegments(), SegmentsToLimit()));
        }
        if ((readsSinceSeek > 1 || (_openedAtStart && _position == 0)) && !_anticipating)
        {
            _ramp = Math.Max(_ramp, 2);
            _anticipating = true;
            _fetcher.Anticipate(Math.Min(BudgetSegments(), SegmentsToLimit()));
        }
    }

    /// <summary>The reader finished a segment: double the read-ahead, up to the byte budget.</summary>
    private void OnSegmentConsumed()
    {
        _segment++;
        var budget = BudgetSegments();
        _ramp = Math.Min(Math.Max(2, _ramp * 2), budget);
        ReleaseCursor();
        // The reader streams: while the read-ahead grows, have connections ready for all of it
        // before it gets there; once grown, demand speaks for itself.
        _fetcher.Anticipate(_ramp < budget ? Math.Min(budget, SegmentsToLimit()) : 0);
    }

    /// <summary>Seek: keep the window when the target is inside it, otherwise start small again.</summary>
    private void MoveTo(long target)
    {
        _position = target;
        _deferredError = null; // it was about the bytes after the old position
        if (_cursorBuffer?.Header is { } header && target >= header.PartBegin && target < header.PartEnd)
        {
            return;
        }
        _segment = -1;
        ReleaseCursor();
        if (target < Length && _index.IsRegular)
        {
            var segment = _index.Locate(target).Segment;
            if (segment >= _windowStart && segment < _windowEnd)
            {
                return;
            }
        }
        ResetRamp();
    }

    private SegmentTicket? SlotAt(int segment)
    {
        var ticket = _ring[segment & _mask];
        return ticket is not null && ticket.Index == segment ? ticket : null;
    }

    private SegmentTicket CreateTicket(int segment)
    {
        var ticket = new SegmentTicket(_context, segment, _index.MessageIdAt(segment), _index.NumberAt(segment));
        var slot = segment & _mask;
        if (_ring[slot] is { } stale)
        {
            // Only reachable if a ticket outside the window was not retired; never serve it.
            stale.Retire();
        }
        _ring[slot] = ticket;
        return ticket;
    }

    /// <summary>Keeps tickets for [segment − keep-behind, segment + span): retires the rest, creates the missing ones ahead.</summary>
    private void MoveWindow(int segment, int span)
    {
        var start = Math.Max(0, segment - _options.KeepBehindSegments);
        // Never past the read-ahead limit, but always the segment being read.
        var end = Math.Min(Math.Min(_index.Count, Math.Max(_limitSegment, segment + 1)), segment + Math.Max(1, span));
        if (start == _windowStart && end == _windowEnd)
        {
            return;
        }
        for (var i = _windowStart; i < Math.Min(_windowEnd, start); i++)
        {
            RetireSlot(i);
        }
        for (var i = Math.Max(_windowStart, end); i < _windowEnd; i++)
        {
            RetireSlot(i);
        }
        var submitted = false;
        for (var i = segment; i < end; i++)
        {
            if (SlotAt(i) is null)
            {
                _fetcher.Submit(CreateTicket(i));
                submitted = true;
            }
        }
        _windowStart = start;
        _windowEnd = end;
        if (submitted)
        {
            _fetcher.Wake();
        }
    }

    private void RetireSlot(int segment)
    {
        if (SlotAt(segment) is not { } ticket)
        {
            return;
        }
        _ring[segment & _mask] = null;
        var unfinished = !ticket.IsCompleted;
        ticket.Retire();
        if (unfinished)
        {
            _fetcher.Withdraw(ticket);
        }
    }
}
