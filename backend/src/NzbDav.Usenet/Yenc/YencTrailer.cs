namespace NzbDav.Usenet.Yenc;

/// <summary>What the <c>=yend</c> line says.</summary>
/// <param name="Size">The <c>size=</c> value: decoded bytes in this part.</param>
/// <param name="Part">The <c>part=</c> value, if present.</param>
/// <param name="PartCrc32">The <c>pcrc32=</c> value (or <c>crc32=</c> on a single-part post), if present.</param>
/// <param name="FileCrc32">The <c>crc32=</c> value of the whole file on a multipart post, if present.</param>
public sealed record YencTrailer(long Size, int? Part, uint? PartCrc32, uint? FileCrc32);
