namespace NzbDav.Usenet.Yenc;

/// <summary>
/// What the <c>=ybegin</c> and (for multipart posts) <c>=ypart</c> lines of one article say.
/// </summary>
/// <param name="FileName">The <c>name=</c> value (rest of the line; may contain spaces).</param>
/// <param name="FileSize">The whole file's decoded size (<c>size=</c> on =ybegin).</param>
/// <param name="LineLength">The <c>line=</c> value.</param>
/// <param name="Part">The <c>part=</c> value, or null for a single-part post.</param>
/// <param name="TotalParts">The <c>total=</c> value, or null when absent.</param>
/// <param name="PartBegin">Zero-based offset of this part in the file (=ypart <c>begin</c> − 1; 0 for single-part).</param>
/// <param name="PartSize">Decoded bytes in this part (=ypart <c>end − begin + 1</c>; the file size for single-part).</param>
public sealed record YencHeader(
    string FileName,
    long FileSize,
    int LineLength,
    int? Part,
    int? TotalParts,
    long PartBegin,
    long PartSize)
{
    /// <summary>Zero-based offset one past the last byte of this part.</summary>
    public long PartEnd => PartBegin + PartSize;
}
