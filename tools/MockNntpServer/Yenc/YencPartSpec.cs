namespace NzbDav.MockNntp.Yenc;

/// <summary>What an encoder writes into the header and trailer of one article.</summary>
/// <param name="FileName">Written as <c>name=</c>.</param>
/// <param name="FileSize">The whole file's size.</param>
/// <param name="Part">1-based part number, or null for a single-part post (no =ypart line).</param>
/// <param name="TotalParts">Written as <c>total=</c> when not null.</param>
/// <param name="PartBegin">Zero-based offset of the part's first byte in the file.</param>
/// <param name="FileCrc32">The whole file's CRC, written as <c>crc32=</c> on the last part when known.</param>
public sealed record YencPartSpec(
    string FileName,
    long FileSize,
    int? Part,
    int? TotalParts,
    long PartBegin,
    uint? FileCrc32 = null);
