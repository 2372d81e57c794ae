namespace NzbDav.Archives.Release;

/// <summary>One PAR2 File Description packet (with the Unicode name applied when the set had one).</summary>
/// <param name="RecoverySetId">Recovery set the packet belongs to.</param>
/// <param name="FileId">PAR2 file id.</param>
/// <param name="FileMd5">MD5 of the whole file.</param>
/// <param name="First16KMd5">MD5 of the first 16 KiB of the file (of the whole file when shorter).</param>
/// <param name="Length">File length in bytes.</param>
/// <param name="Name">File name as the poster named it, NULs stripped; not yet sanitised for display.</param>
public sealed record Par2FileDescription(
    Hash16 RecoverySetId,
    Hash16 FileId,
    Hash16 FileMd5,
    Hash16 First16KMd5,
    long Length,
    string Name);
