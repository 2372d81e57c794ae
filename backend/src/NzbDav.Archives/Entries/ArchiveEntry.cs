namespace NzbDav.Archives.Entries;

/// <summary>A file or directory inside an archive whose bytes are stored verbatim in the volumes.</summary>
public sealed class ArchiveEntry
{
    /// <summary>Relative path with '/' separators, no leading '/', no '.' or '..' segments.</summary>
    public required string Path { get; init; }

    /// <summary>Size of the entry's contents in bytes (the plaintext size when encrypted).</summary>
    public required long Size { get; init; }

    /// <summary>True for a directory; directories have no ranges.</summary>
    public required bool IsDirectory { get; init; }

    /// <summary>Modification time when the archive records one.</summary>
    public DateTimeOffset? Modified { get; init; }

    /// <summary>
    /// Where the stored bytes are, in order. Their lengths add up to <see cref="Size"/>, or to the
    /// padded ciphertext length when <see cref="Encryption"/> is set.
    /// </summary>
    public required IReadOnlyList<ArchiveByteRange> Ranges { get; init; }

    /// <summary>Set when the stored bytes are AES-encrypted.</summary>
    public ArchiveEncryption? Encryption { get; init; }

    /// <inheritdoc />
    public override string ToString() => IsDirectory ? Path + "/" : Path + " (" + Size + " bytes)";
}
