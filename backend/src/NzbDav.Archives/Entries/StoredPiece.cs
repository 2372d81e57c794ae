namespace NzbDav.Archives.Entries;

/// <summary>One volume's part of an entry, as a RAR file header describes it.</summary>
internal readonly record struct StoredPiece(
    string Path,
    long Size,
    bool IsDirectory,
    DateTimeOffset? Modified,
    ArchiveEncryption? Encryption,
    bool ContinuedFromPrevious,
    bool ContinuesInNext,
    ArchiveByteRange Range);
