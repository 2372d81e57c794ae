namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>One pass of the probe pattern over every file; each time from sending a request to the last byte of its answer.</summary>
public sealed record ProbeScanResult
{
    /// <summary>From the first request of the pass to the last answer.</summary>
    public required TimeSpan Elapsed { get; init; }

    public required LatencySummary Propfinds { get; init; }

    public required LatencySummary HeadRequests { get; init; }

    /// <summary>GETs of each file's first 64 KiB.</summary>
    public required LatencySummary HeaderReads { get; init; }

    /// <summary>GETs of each file's last 64 KiB.</summary>
    public required LatencySummary TailReads { get; init; }

    /// <summary>The 1 MiB GETs at each file's seeded positions.</summary>
    public required LatencySummary RandomReads { get; init; }

    /// <summary>Body bytes the GETs of the pass received.</summary>
    public required long ServedBytes { get; init; }

    /// <summary>Bytes the provider sent for the pass, read-ahead that outlived its request included.</summary>
    public long ProviderBytes { get; init; }

    public int Requests => Propfinds.Count + HeadRequests.Count + HeaderReads.Count + TailReads.Count + RandomReads.Count;

    /// <summary>Provider bytes per byte served in this pass.</summary>
    public double FetchedToServedRatio => ServedBytes > 0 ? (double)ProviderBytes / ServedBytes : 0;
}
