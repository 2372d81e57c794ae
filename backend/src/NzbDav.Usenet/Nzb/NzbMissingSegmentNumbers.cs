using System.Collections;

namespace NzbDav.Usenet.Nzb;

// The numbers absent from 1..max of a sorted, duplicate-free segment array, computed from the
// array on demand so a file with a huge gap (or a corrupt huge number) costs no memory.
internal sealed class NzbMissingSegmentNumbers : IReadOnlyList<int>
{
    private readonly NzbSegment[] _sorted;

    private NzbMissingSegmentNumbers(NzbSegment[] sorted, int count)
    {
        _sorted = sorted;
        Count = count;
    }

    public int Count { get; }

    public int this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfNegative(index);
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, Count);

            // MissingBelow(i) grows with i; find the first segment with more than `index` gaps
            // below it. The answer skips exactly the i present numbers under that segment.
            int low = 0, high = _sorted.Length - 1;
            while (low < high)
            {
                var mid = low + ((high - low) / 2);
                if (MissingBelow(mid) > index)
                    high = mid;
                else
                    low = mid + 1;
            }

            return index + 1 + low;
        }
    }

    // The missing numbers of sorted, or an empty list when there are none.
    public static IReadOnlyList<int> For(NzbSegment[] sorted)
    {
        if (sorted.Length == 0)
            return [];
        var missing = (long)sorted[^1].Number - sorted.Length;
        return missing == 0 ? [] : new NzbMissingSegmentNumbers(sorted, checked((int)missing));
    }

    public IEnumerator<int> GetEnumerator()
    {
        var expected = 1;
        foreach (var segment in _sorted)
        {
            for (; expected < segment.Number; expected++)
                yield return expected;
            expected = segment.Number + 1;
        }
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    private long MissingBelow(int i) => (long)_sorted[i].Number - (i + 1);
}
