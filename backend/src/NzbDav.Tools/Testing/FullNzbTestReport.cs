namespace NzbDav.Tools.Testing;

/// <summary>Everything one <c>--test-full-nzb</c> run measured.</summary>
public sealed record FullNzbTestReport
{
    /// <summary>The NZB's file name.</summary>
    public required string Source { get; init; }

    /// <summary>Files in the NZB.</summary>
    public required int TotalFiles { get; init; }

    /// <summary>The file the reads were made on (the largest).</summary>
    public required string TestedFile { get; init; }

    public required long FileSize { get; init; }

    public required int Segments { get; init; }

    /// <summary>Decoded bytes per article, from the first article's yEnc header.</summary>
    public required long PartSize { get; init; }

    /// <summary>Connections one stream was allowed to use.</summary>
    public required int StreamConnections { get; init; }

    /// <summary>Ingestion steps in the order they ran.</summary>
    public required IReadOnlyList<TimedStep> Steps { get; init; }

    /// <summary>Seek + first read at 10 %, 50 %, 90 %, 20 % of the file, in that order.</summary>
    public required IReadOnlyList<ScrubResult> Scrub { get; init; }

    public required long SequentialBytes { get; init; }

    public required TimeSpan SequentialElapsed { get; init; }

    /// <summary>Whole-file throughput in MB/s, where MB is 10^6 bytes.</summary>
    public double SequentialMBps => SequentialElapsed > TimeSpan.Zero ? SequentialBytes / 1e6 / SequentialElapsed.TotalSeconds : 0;

    /// <summary>Durations of the sequential 256 KiB reads.</summary>
    public required ReadTimeStatistics ReadTimes { get; init; }

    /// <summary>The sweep of the health-check file alone (null without <c>--sweep-segments</c>).</summary>
    public SweepResult? SweepAlone { get; init; }

    /// <summary>Sweeps run back to back while the sequential read ran.</summary>
    public SweepResult? SweepDuringRead { get; init; }

    /// <summary>With <c>--disk-cache</c>: the file read again from the disk cache alone.</summary>
    internal DiskCacheRead? DiskCacheRead { get; init; }

    /// <summary>Counters summed over every stream the tester opened (scrub and sequential).</summary>
    public required StreamCounters Streams { get; init; }

    public required MemoryUsage Memory { get; init; }

    public required VerificationResult Verification { get; init; }

    /// <summary>The in-process mock server's settings and counters; null against real providers.</summary>
    public MockServerReport? Mock { get; init; }

    /// <summary>The metrics scrapes during the run, when <c>--scrape-metrics-ms</c> asked for them.</summary>
    public MetricsScrapes? Scrapes { get; init; }

    /// <summary>Bytes fetched from Usenet per byte returned to the reader.</summary>
    public double FetchedToReadRatio => Streams.BytesRead > 0 ? (double)Streams.BytesFetched / Streams.BytesRead : 0;

    /// <summary>The whole file was read and no byte was wrong.</summary>
    public bool Passed => SequentialBytes == FileSize && Verification.MismatchedReads == 0 && (DiskCacheRead is null || DiskCacheRead.Bytes == FileSize);
}
