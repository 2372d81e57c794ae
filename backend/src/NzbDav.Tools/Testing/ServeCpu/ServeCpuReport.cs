namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// What one <c>--test-serve-cpu</c> run measured. Only the measured GETs count towards the rates;
/// the warm-up GETs (JIT, connections, the first read of the file) are reported apart.
/// </summary>
public sealed record ServeCpuReport
{
    public required string Path { get; init; }

    public required long FileSize { get; init; }

    public required ServeCpuOptions Options { get; init; }

    /// <summary>From <c>addfile</c> until the job was Completed.</summary>
    public required TimeSpan Ingestion { get; init; }

    /// <summary>Body bytes of all warm-up GETs.</summary>
    public required long WarmupBytes { get; init; }

    /// <summary>Each warm-up GET's time, in order.</summary>
    public required IReadOnlyList<TimeSpan> WarmupTimes { get; init; }

    /// <summary>User plus system CPU of the server process during the warm-up GETs.</summary>
    public required TimeSpan WarmupServerCpu { get; init; }

    /// <summary>Body bytes of the measured GETs.</summary>
    public required long BytesServed { get; init; }

    /// <summary>Wall time of the measured GETs, first request to last byte.</summary>
    public required TimeSpan Elapsed { get; init; }

    /// <summary>Each measured GET's time, in the order they were started.</summary>
    public required IReadOnlyList<TimeSpan> GetTimes { get; init; }

    /// <summary>User plus system CPU of the server process during the measured GETs.</summary>
    public required TimeSpan ServerCpu { get; init; }

    /// <summary>Context switches of the server's threads during the measured GETs (null where not readable).</summary>
    public long? ServerContextSwitches { get; init; }

    /// <summary>The same for the mock NNTP server, for context.</summary>
    public required TimeSpan MockCpu { get; init; }

    /// <summary>The same for this process, the HTTP client (and the children's output readers).</summary>
    public required TimeSpan ClientCpu { get; init; }

    /// <summary>The server's highest resident set size over its whole life (ingestion and warm-up included).</summary>
    public required long ServerPeakRssBytes { get; init; }

    public double MBps => BytesServed / 1e6 / Elapsed.TotalSeconds;

    /// <summary>Server CPU-seconds per GB served (GB = 10^9 bytes).</summary>
    public double CpuSecondsPerGb => ServerCpu.TotalSeconds / (BytesServed / 1e9);

    /// <summary>Server context switches per GB served: wake-ups, the cost per operation rather than per byte.</summary>
    public double? ContextSwitchesPerGb => ServerContextSwitches / (BytesServed / 1e9);

    /// <summary>The same over the warm-up GETs: what a fresh process pays while its JIT settles.</summary>
    public double WarmupCpuSecondsPerGb => WarmupServerCpu.TotalSeconds / (WarmupBytes / 1e9);

    /// <summary>Cores the server kept busy on average: CPU time over wall time.</summary>
    public double ServerCores => ServerCpu.TotalSeconds / Elapsed.TotalSeconds;
}
