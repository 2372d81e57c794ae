using System.Diagnostics.CodeAnalysis;
using NzbDav.Archives.Crypto;

namespace NzbDav.Archives.Entries;

/// <summary>Opens an entry's contents as a seekable read-only stream over the archive volumes.</summary>
[SuppressMessage("Naming", "CA1711:Identifiers should not have incorrect suffix",
    Justification = "A factory named for what it returns: ArchiveEntryStream.Open(entry, volumes) is the entry's Stream.")]
public static class ArchiveEntryStream
{
    /// <summary>
    /// A stream of <paramref name="entry"/>'s plaintext: a view of its ranges over
    /// <paramref name="volumes"/> (not disposed), decrypted on the fly when the entry is encrypted.
    /// </summary>
    public static Stream Open(ArchiveEntry entry, IReadOnlyList<Stream> volumes)
    {
        ArgumentNullException.ThrowIfNull(entry);
        ArgumentNullException.ThrowIfNull(volumes);
        if (entry.IsDirectory)
        {
            throw new ArgumentException($"'{entry.Path}' is a directory", nameof(entry));
        }

        var stored = new ArchiveRangeStream(volumes, entry.Ranges);
        return entry.Encryption is { } encryption
            ? new AesCbcDecryptingStream(stored, encryption.Key.ToArray(), encryption.Iv.ToArray(), encryption.PlaintextOffset, entry.Size, leaveOpen: false)
            : stored;
    }
}
