namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>What the Plex-like probe phase measured: the same probe pattern over every file, twice.</summary>
public sealed record ProbeResult
{
    public required int Files { get; init; }

    /// <summary>Size of each probed file in bytes.</summary>
    public required long FileSize { get; init; }

    /// <summary>Files probed at once.</summary>
    public required int Concurrency { get; init; }

    /// <summary>The first pass, as a media server's first scan of a new library.</summary>
    public required ProbeScanResult Scan1 { get; init; }

    /// <summary>The second pass, a library refresh: the same requests at the same positions.</summary>
    public required ProbeScanResult Scan2 { get; init; }

    /// <summary>The server restarted between the scans (<c>--restart-between-scans</c>).</summary>
    public bool Restarted { get; init; }

    /// <summary>Bytes of other files played whole between the scans (<c>--play-between-scans-mib</c>).</summary>
    public long PlayedBetweenBytes { get; init; }

    /// <summary>The host's disk segment cache size (0: none).</summary>
    public long DiskCacheBytes { get; init; }

    public long ServedBytes => Scan1.ServedBytes + Scan2.ServedBytes;

    public long ProviderBytes => Scan1.ProviderBytes + Scan2.ProviderBytes;

    /// <summary>Provider bytes per byte served over both scans.</summary>
    public double FetchedToServedRatio => ServedBytes > 0 ? (double)ProviderBytes / ServedBytes : 0;
}
