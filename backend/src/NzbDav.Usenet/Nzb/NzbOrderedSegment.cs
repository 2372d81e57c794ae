namespace NzbDav.Usenet.Nzb;

/// <summary>A segment with its position in the document, so sorting can keep the first duplicate.</summary>
internal readonly record struct NzbOrderedSegment(NzbSegment Segment, int Order);
