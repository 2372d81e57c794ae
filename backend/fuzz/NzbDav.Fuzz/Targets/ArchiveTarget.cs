using NzbDav.Archives;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Rar;
using NzbDav.Archives.SevenZip;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// A RAR4, RAR5 or 7z header reader over a volume set. Input: one flag byte, then the volumes
/// separated by <see cref="VolumeSeparator"/>. Flag bit 0 asks the harness to recompute the header
/// checksums first (<see cref="ChecksumFixer"/>), so mutations reach the fields behind the CRCs
/// instead of stopping at the checksum check. No password is given: key derivation is slow by
/// design (RAR5 allows 2^24 PBKDF2 rounds), so encrypted content must be rejected, not opened.
/// Clean rejection: <see cref="ArchiveFormatException"/> and its subclasses. Every listed byte
/// range must lie inside its volume.
/// </summary>
public sealed class ArchiveTarget(string name, ArchiveTarget.Format format) : FuzzTarget
{
    public enum Format
    {
        Rar4,
        Rar5,
        SevenZip,
    }

    public static ReadOnlySpan<byte> VolumeSeparator => "\n@@NZBDAV-VOLUME@@\n"u8;

    private readonly IArchiveReader _reader = format switch
    {
        Format.Rar4 => new Rar4Reader(),
        Format.Rar5 => new Rar5Reader(),
        _ => new SevenZipReader(),
    };

    public override string Name => name;

    public override bool Run(byte[] input)
    {
        if (input.Length == 0)
        {
            return false;
        }
        var fix = (input[0] & 1) != 0;
        var volumes = Split(input.AsSpan(1));
        if (fix)
        {
            foreach (var volume in volumes)
            {
                ChecksumFixer.Fix(format, volume);
            }
        }
        var streams = volumes.Select(v => (Stream)new MemoryStream(v, writable: false)).ToList();
        var accepted = false;
        Sync.Run(async () =>
        {
            ArchiveListing listing;
            try
            {
                listing = await _reader.ReadAsync(streams, password: null, CancellationToken.None);
            }
            catch (ArchiveFormatException)
            {
                return;
            }
            accepted = true;
            foreach (var entry in listing.Entries)
            {
                foreach (var range in entry.Ranges)
                {
                    if (range.VolumeIndex < 0 || range.VolumeIndex >= volumes.Count || range.Offset < 0 || range.Length < 0
                        || range.Offset + range.Length > volumes[range.VolumeIndex].Length)
                    {
                        throw new FuzzFindingException($"Entry '{entry.Path}' has range {range} outside its volume set ({string.Join(", ", volumes.Select(v => v.Length))} bytes).");
                    }
                }
            }
        });
        return accepted;
    }

    private static List<byte[]> Split(ReadOnlySpan<byte> rest)
    {
        var volumes = new List<byte[]>();
        while (true)
        {
            var at = rest.IndexOf(VolumeSeparator);
            if (at < 0 || volumes.Count == 63)
            {
                volumes.Add(rest.ToArray());
                return volumes;
            }
            volumes.Add(rest[..at].ToArray());
            rest = rest[(at + VolumeSeparator.Length)..];
        }
    }
}
