namespace NzbDav.Streaming;

/// <summary>What <see cref="SegmentIndex.Locate"/> knows about a file offset.</summary>
internal enum SegmentLocationKind
{
    /// <summary>The segment holding the offset (its header is known, or the layout is regular).</summary>
    Found,

    /// <summary>Unknown yet: fetch this segment's header and ask again.</summary>
    Probe,

    /// <summary>No segment holds the offset: the known neighbours leave a hole around it.</summary>
    Gap,
}

/// <summary>The answer of <see cref="SegmentIndex.Locate"/>.</summary>
internal readonly record struct SegmentLocation(SegmentLocationKind Kind, int Segment, long GapStart, long GapEnd)
{
    public static SegmentLocation Found(int segment) => new(SegmentLocationKind.Found, segment, 0, 0);

    public static SegmentLocation Probe(int segment) => new(SegmentLocationKind.Probe, segment, 0, 0);

    public static SegmentLocation Gap(long start, long end) => new(SegmentLocationKind.Gap, -1, start, end);
}
