namespace NzbDav.Streaming.Combined;

/// <summary>
/// What a <see cref="CombinedStream"/>'s inner streams fetched and took shared, over every inner
/// stream it opened: those open now (read live) plus running totals of those already closed (taken
/// when each closed). Written by the combined stream's one operation at a time, read by the
/// dashboard from another thread: a short lock, taken once per inner open or close and once per read
/// of the totals, never per byte.
/// </summary>
internal sealed class InnerStreamTotals
{
    private readonly Lock _gate = new();
    private readonly List<IReadAheadSource> _open = new(2);
    private long _closedFetched;
    private long _closedShared;

    /// <summary>Decoded bytes fetched from providers by every inner stream so far.</summary>
    public long BytesFetched
    {
        get
        {
            lock (_gate)
            {
                var total = _closedFetched;
                foreach (var source in _open)
                    total += source.BytesFetched;
                return total;
            }
        }
    }

    /// <summary>Decoded bytes every inner stream so far took from the cache or another stream's fetch.</summary>
    public long BytesShared
    {
        get
        {
            lock (_gate)
            {
                var total = _closedShared;
                foreach (var source in _open)
                    total += source.BytesShared;
                return total;
            }
        }
    }

    /// <summary>An inner stream was opened; counted live until <see cref="Closed"/>. Streams that cannot say are ignored.</summary>
    public void Opened(Stream stream)
    {
        if (stream is not IReadAheadSource source)
            return;
        lock (_gate)
            _open.Add(source);
    }

    /// <summary>An inner stream was closed: its counts so far move to the running totals (once, however often it is called).</summary>
    public void Closed(Stream stream)
    {
        if (stream is not IReadAheadSource source)
            return;
        lock (_gate)
        {
            for (var i = 0; i < _open.Count; i++)
            {
                if (ReferenceEquals(_open[i], source))
                {
                    _open.RemoveAt(i);
                    _closedFetched += source.BytesFetched;
                    _closedShared += source.BytesShared;
                    return;
                }
            }
        }
    }
}
