using NzbDav.Archives.Entries;
using NzbDav.Data.Layout;

namespace NzbDav.Server.Queue;

/// <summary>Turns an archive listing into job files: each stored range becomes a layout part over its volume's articles.</summary>
internal static class ArchiveLayouts
{
    public static IReadOnlyList<IngestedFile> Map(ArchiveListing listing, IReadOnlyList<ArchiveVolumeStream> volumes, ILogger logger)
    {
        var files = new List<IngestedFile>(listing.Entries.Count);
        var ids = new string[volumes.Count][];
        foreach (var entry in listing.Entries)
        {
            if (entry.IsDirectory)
            {
                files.Add(IngestedFile.Directory(entry.Path));
                continue;
            }

            var parts = new List<LayoutPart>(entry.Ranges.Count);
            foreach (var range in entry.Ranges)
            {
                if (range.VolumeIndex < 0 || range.VolumeIndex >= volumes.Count)
                    throw new IngestionFailedException($"Archive entry '{entry.Path}' refers to volume {range.VolumeIndex + 1} of {volumes.Count}.");
                var volume = volumes[range.VolumeIndex];
                parts.Add(new LayoutPart(ids[range.VolumeIndex] ??= MessageIds(volume.File), volume.Length, volume.File.PartSize, range.Offset, range.Length));
            }

            LayoutEncryption? encryption = null;
            if (entry.Encryption is { } aes)
            {
                if (!aes.PasswordVerified)
                    logger.LogWarning("Archive entry {Entry} is encrypted without a password check value; a wrong password would only show as wrong bytes", entry.Path);
                encryption = new LayoutEncryption(aes.Key.ToArray(), aes.Iv.ToArray(), entry.Size, aes.PlaintextOffset);
            }

            var layout = new DavFileLayout(parts, encryption);
            if (encryption is not null && (layout.StoredLength % 16 != 0 || layout.StoredLength - encryption.PlaintextOffset < entry.Size))
                throw new IngestionFailedException($"Encrypted archive entry '{entry.Path}' has {layout.StoredLength} stored bytes, not whole AES blocks covering its {entry.Size} bytes.");
            if (layout.Length != entry.Size)
                throw new IngestionFailedException($"Archive entry '{entry.Path}' is {entry.Size} bytes but its stored ranges hold {layout.StoredLength}.");
            files.Add(new IngestedFile(entry.Path, layout));
        }

        return files;
    }

    private static string[] MessageIds(ProbedFile file)
    {
        var segments = file.File.Segments.Span;
        var ids = new string[segments.Length];
        for (var i = 0; i < ids.Length; i++)
            ids[i] = segments[i].MessageId;
        return ids;
    }
}
