namespace NzbDav.Streaming;

/// <summary>
/// Part headers seen so far, by segment, for an irregular <see cref="SegmentIndex"/>. Writers (any
/// connection) store the size before publishing the begin, so a reader that sees a begin sees its size.
/// </summary>
internal sealed class KnownParts
{
    private readonly long[] _begins;
    private readonly long[] _sizes;

    public KnownParts(int count)
    {
        _begins = new long[count];
        _sizes = new long[count];
        Array.Fill(_begins, -1L);
    }

    /// <summary>Records a segment's range; false if it was known with a different one.</summary>
    public bool Record(int segment, long begin, long size)
    {
        var existing = Volatile.Read(ref _begins[segment]);
        if (existing >= 0)
        {
            return existing == begin && Volatile.Read(ref _sizes[segment]) == size;
        }
        Volatile.Write(ref _sizes[segment], size);
        Volatile.Write(ref _begins[segment], begin);
        return true;
    }

    public bool TryGet(int segment, out long begin, out long size)
    {
        begin = Volatile.Read(ref _begins[segment]);
        size = begin >= 0 ? Volatile.Read(ref _sizes[segment]) : 0;
        return begin >= 0;
    }

    /// <summary>
    /// Interpolation search: the known segments just below and above <paramref name="offset"/>
    /// bracket it; if neither holds it, guess the segment between them in proportion to the offset.
    /// </summary>
    public SegmentLocation Locate(long offset, long fileSize)
    {
        int lo = -1, hi = _begins.Length;
        long loEnd = 0, hiBegin = fileSize;
        for (var i = 0; i < _begins.Length; i++)
        {
            var begin = Volatile.Read(ref _begins[i]);
            if (begin < 0)
            {
                continue;
            }
            if (begin > offset)
            {
                hi = i;
                hiBegin = begin;
                break;
            }
            lo = i;
            loEnd = begin + Volatile.Read(ref _sizes[i]);
        }
        if (lo >= 0 && offset < loEnd)
        {
            return SegmentLocation.Found(lo);
        }
        var gapStart = lo >= 0 ? loEnd : 0;
        if (hi == lo + 1 || hiBegin <= gapStart)
        {
            return SegmentLocation.Gap(gapStart, hiBegin);
        }
        var first = lo + 1;
        var candidates = hi - first;
        var guess = first + (int)Math.Min(candidates - 1, (offset - gapStart) * (double)candidates / (hiBegin - gapStart));
        return SegmentLocation.Probe(Math.Clamp(guess, first, hi - 1));
    }
}
