using NzbDav.Archives.Rar;
using NzbDav.Archives.SevenZip;

namespace NzbDav.Archives.Entries;

/// <summary>Detects the format of a volume set by its first bytes and lists it with the matching reader.</summary>
public sealed class ArchiveReader : IArchiveReader
{
    private readonly Rar4Reader _rar4 = new();
    private readonly Rar5Reader _rar5 = new();
    private readonly SevenZipReader _sevenZip = new();

    /// <summary>Format of the archive whose first volume is <paramref name="firstVolume"/> (read from offset 0).</summary>
    public static async Task<ArchiveFormat> DetectAsync(Stream firstVolume, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(firstVolume);
        var prefix = new byte[ArchiveDetector.PrefixLength];
        firstVolume.Position = 0;
        var count = await firstVolume.ReadAtLeastAsync(prefix, prefix.Length, throwOnEndOfStream: false, cancellationToken).ConfigureAwait(false);
        return ArchiveDetector.Detect(prefix.AsSpan(0, count));
    }

    /// <inheritdoc />
    public async Task<ArchiveListing> ReadAsync(IReadOnlyList<Stream> volumes, string? password, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volumes);
        if (volumes.Count == 0)
        {
            throw new ArgumentException("at least one volume is required", nameof(volumes));
        }

        IArchiveReader reader = await DetectAsync(volumes[0], cancellationToken).ConfigureAwait(false) switch
        {
            ArchiveFormat.Rar4 => _rar4,
            ArchiveFormat.Rar5 => _rar5,
            ArchiveFormat.SevenZip => _sevenZip,
            _ => throw new ArchiveFormatException("the first volume is not a RAR4, RAR5 or 7z archive (no known signature at offset 0)"),
        };
        return await reader.ReadAsync(volumes, password, cancellationToken).ConfigureAwait(false);
    }
}
