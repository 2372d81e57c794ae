namespace NzbDav.Data.Layout;

/// <summary>How a virtual file maps onto Usenet articles: its ranges in file order.</summary>
public sealed record DavFileLayout(IReadOnlyList<LayoutPart> Parts)
{
    /// <summary>Sum of the parts' range lengths.</summary>
    public long Length => Parts.Sum(p => p.RangeLength);
}
