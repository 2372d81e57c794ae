namespace NzbDav.Archives.Entries;

/// <summary>The streamable contents of an archive (one volume or a volume set).</summary>
public sealed class ArchiveListing
{
    /// <summary>Container format the listing was read from.</summary>
    public required ArchiveFormat Format { get; init; }

    /// <summary>Number of volumes the ranges refer to.</summary>
    public required int VolumeCount { get; init; }

    /// <summary>Files and directories in archive order.</summary>
    public required IReadOnlyList<ArchiveEntry> Entries { get; init; }
}
