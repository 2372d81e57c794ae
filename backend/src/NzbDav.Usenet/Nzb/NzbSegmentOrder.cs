namespace NzbDav.Usenet.Nzb;

// Orders by segment number, then document order. A struct so Span.Sort specialises
// on it instead of calling through an interface.
internal readonly struct NzbSegmentOrder : IComparer<NzbOrderedSegment>
{
    public int Compare(NzbOrderedSegment x, NzbOrderedSegment y)
    {
        var byNumber = x.Segment.Number.CompareTo(y.Segment.Number);
        return byNumber != 0 ? byNumber : x.Order.CompareTo(y.Order);
    }
}
