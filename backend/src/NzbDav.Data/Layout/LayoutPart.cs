namespace NzbDav.Data.Layout;

/// <summary>
/// A byte range of one decoded NZB file: its article message-ids in part order, the decoded size of
/// every part but the last (<paramref name="PartSize"/>, from the first yEnc header) and the file size.
/// A plain file is one part covering the whole file; a stored archive entry is a range per volume.
/// </summary>
/// <param name="MessageIds">Message-ids without angle brackets, segment 1 first.</param>
/// <param name="FileSize">Decoded size of the whole NZB file.</param>
/// <param name="PartSize">Decoded bytes per article (all but the last).</param>
/// <param name="RangeOffset">Where the range starts inside the decoded file.</param>
/// <param name="RangeLength">Bytes of the range.</param>
public sealed record LayoutPart(IReadOnlyList<string> MessageIds, long FileSize, long PartSize, long RangeOffset, long RangeLength)
{
    /// <summary>A part covering all of an NZB file.</summary>
    public static LayoutPart WholeFile(IReadOnlyList<string> messageIds, long fileSize, long partSize) =>
        new(messageIds, fileSize, partSize, 0, fileSize);
}
