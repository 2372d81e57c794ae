namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>What the concurrent phase (streams playing while the library is scanned) measured.</summary>
public sealed record ConcurrentLoadResult
{
    public required int Streams { get; init; }

    /// <summary>Each stream's read rate in Mbit/s; 0 = unpaced.</summary>
    public required int StreamMbps { get; init; }

    /// <summary>From the first stream's request until the last stream stopped.</summary>
    public required TimeSpan Elapsed { get; init; }

    /// <summary>The slowest stream's first 256 KiB block (playback start, before the scan begins).</summary>
    public required TimeSpan SlowestStart { get; init; }

    /// <summary>Every later 256 KiB block on every stream: how long the reader waited for it.</summary>
    public required LatencySummary StreamReads { get; init; }

    /// <summary>Body bytes the streams received in total.</summary>
    public required long StreamBytes { get; init; }

    /// <summary>Files the streams played: 1 when all played the benchmark file, the stream count with <c>--distinct-files</c>.</summary>
    public int DistinctFiles { get; init; } = 1;

    /// <summary>Streams that reached the end of the file before the phase ended.</summary>
    public required int StreamsAtEnd { get; init; }

    public required LatencySummary Propfinds { get; init; }

    public required LatencySummary HeaderReads { get; init; }

    /// <summary>Body bytes the header reads received in total.</summary>
    public required long HeaderBytes { get; init; }

    /// <summary>Bytes the provider (the mock server) sent during the phase: every segment fetched, read ahead or not.</summary>
    public long ProviderBytes { get; init; }

    /// <summary>Provider bytes per byte served to the clients (streams and header reads).</summary>
    public double FetchedToServedRatio => StreamBytes + HeaderBytes > 0 ? (double)ProviderBytes / (StreamBytes + HeaderBytes) : 0;

    /// <summary>The <c>--hostile-connections</c> held through the phase, when there were any.</summary>
    public HostileConnectionsResult? Hostile { get; init; }

    /// <summary>The PAR2 repair that ran beside the streams (<c>--par2-repair-mib</c>), when one did.</summary>
    public Par2RepairRun? Par2Repair { get; init; }

    /// <summary>Streams that read as fast as the server sent (<c>--greedy-streams</c>).</summary>
    public int GreedyStreams { get; init; }

    /// <summary>Body bytes the greedy streams received.</summary>
    public long GreedyBytes { get; init; }

    /// <summary>The provider's rate, sampled every second through the phase (with greedy streams).</summary>
    public ProviderRateResult? ProviderRate { get; init; }

    /// <summary>From the scan's first request to its last answer.</summary>
    public required TimeSpan ScanElapsed { get; init; }
}
