namespace NzbDav.Archives.Release;

/// <summary>What ingestion knows about one NZB file after fetching its first article.</summary>
/// <param name="Subject">The NZB subject line; its quoted name is used when <paramref name="SubjectName"/> is null.</param>
/// <param name="SubjectName">Name already derived from the subject, if any.</param>
/// <param name="YencName">The yEnc header's <c>name=</c>.</param>
/// <param name="Size">Decoded file size (yEnc <c>size=</c>), when known; PAR2 matches must agree with it.</param>
/// <param name="First16KMd5">MD5 of the first 16 KiB (whole file when shorter), see <see cref="Par2Hashes.First16KMd5"/>.</param>
/// <param name="Kind">Kind from <see cref="ReleaseFileClassifier.ClassifyMagic"/>, used to add a missing extension.</param>
public sealed record ReleaseFileInput(
    string? Subject,
    string? SubjectName,
    string? YencName,
    long? Size,
    Hash16? First16KMd5,
    ReleaseFileKind Kind = ReleaseFileKind.Unknown);
