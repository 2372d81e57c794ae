using System.Buffers;

namespace NzbDav.Usenet.Nzb;

// Gathers one file's segments in a pooled buffer that is reused for every file of a document,
// then sorts and de-duplicates them in place. Sorting is skipped for the usual
// already-ascending input.
internal sealed class NzbSegmentCollector : IDisposable
{
    private const int InitialCapacity = 256;

    private NzbOrderedSegment[] _items = ArrayPool<NzbOrderedSegment>.Shared.Rent(InitialCapacity);
    private int _count;
    private int _lastNumber;
    private bool _strictlyAscending = true;

    public int Count => _count;

    public void Reset()
    {
        // Clearing drops the previous file's message-id references so they are not kept alive.
        Array.Clear(_items, 0, _count);
        _count = 0;
        _lastNumber = 0;
        _strictlyAscending = true;
    }

    public void Add(NzbSegment segment)
    {
        if (_count == _items.Length)
            Grow();
        if (segment.Number <= _lastNumber)
            _strictlyAscending = false;
        _lastNumber = segment.Number;
        _items[_count] = new NzbOrderedSegment(segment, _count);
        _count++;
    }

    // Sorted, duplicate-free copy of the collected segments, and the sum of their bytes.
    public NzbSegment[] ToSortedArray(out long encodedBytes)
    {
        var items = _items.AsSpan(0, _count);
        var distinct = _count;
        if (!_strictlyAscending)
        {
            items.Sort(new NzbSegmentOrder());
            distinct = DropDuplicates(items);
        }

        var result = new NzbSegment[distinct];
        long total = 0;
        for (var i = 0; i < distinct; i++)
        {
            result[i] = items[i].Segment;
            total += items[i].Segment.Bytes;
        }

        encodedBytes = total;
        return result;
    }

    public void Dispose()
    {
        var items = _items;
        _items = [];
        _count = 0;
        ArrayPool<NzbOrderedSegment>.Shared.Return(items, clearArray: true);
    }

    // Sorted input: the first entry of each run of equal numbers is the earliest in the document.
    private static int DropDuplicates(Span<NzbOrderedSegment> sorted)
    {
        var kept = 0;
        for (var i = 0; i < sorted.Length; i++)
        {
            if (kept > 0 && sorted[kept - 1].Segment.Number == sorted[i].Segment.Number)
                continue;
            sorted[kept++] = sorted[i];
        }

        return kept;
    }

    private void Grow()
    {
        var larger = ArrayPool<NzbOrderedSegment>.Shared.Rent(_items.Length * 2);
        Array.Copy(_items, larger, _count);
        ArrayPool<NzbOrderedSegment>.Shared.Return(_items, clearArray: true);
        _items = larger;
    }
}
