namespace NzbDav.Data.Layout;

/// <summary>How a virtual file maps onto Usenet articles: its ranges in file order, and how they are encrypted, if at all.</summary>
public sealed record DavFileLayout(IReadOnlyList<LayoutPart> Parts, LayoutEncryption? Encryption = null)
{
    /// <summary>Sum of the parts' range lengths.</summary>
    public long StoredLength => Parts.Sum(p => p.RangeLength);

    /// <summary>Bytes of the file: the stored bytes, or the plaintext length when encrypted.</summary>
    public long Length => Encryption?.PlaintextLength ?? StoredLength;
}
