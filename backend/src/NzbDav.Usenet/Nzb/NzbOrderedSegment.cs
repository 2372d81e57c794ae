namespace NzbDav.Usenet.Nzb;

// A segment with its position in the document, so sorting can keep the first duplicate.
internal readonly record struct NzbOrderedSegment(NzbSegment Segment, int Order);
