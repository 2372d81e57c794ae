namespace NzbDav.Archives.Entries;

/// <summary>Reads the headers of one archive format and maps stored entries onto volume byte ranges.</summary>
public interface IArchiveReader
{
    /// <summary>
    /// Lists the entries of the archive made of <paramref name="volumes"/> (seekable, in volume
    /// order; not disposed). Reads headers, and entry data only where a 7z password has no other
    /// proof: the last AES block of a folder, or one small encrypted file.
    /// </summary>
    /// <exception cref="ArchiveFormatException">Malformed or truncated headers.</exception>
    /// <exception cref="UnsupportedArchiveException">An entry is compressed, solid, or otherwise not streamable.</exception>
    /// <exception cref="ArchivePasswordException">Encrypted content with a missing or wrong password.</exception>
    Task<ArchiveListing> ReadAsync(IReadOnlyList<Stream> volumes, string? password, CancellationToken cancellationToken);
}
