using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;

namespace NzbDav.Streaming;

/// <summary>
/// How a <see cref="BufferedSegmentStream"/> fetches ahead of its reader. The defaults suit one
/// fast reader (a benchmark or a 4K remux) on a provider 20–150 ms away; every bound is per stream.
/// </summary>
public sealed record StreamingOptions
{
    /// <summary>The largest read-ahead <see cref="MaxReadAheadBytes"/> may be set to, and the ceiling of the automatic one.</summary>
    public const long ReadAheadCeilingBytes = 64L * 1024 * 1024;

    /// <summary>
    /// Connections (leases from the streaming pool) one stream may hold at once. Default 20. Each
    /// keeps up to the provider's PipelineDepth requests in flight. Idle leases go back after
    /// <see cref="WorkerIdleTimeout"/>, so a paused stream holds none.
    /// </summary>
    public int ConnectionsPerStream { get; init; } = 20;

    /// <summary>
    /// Fixed read-ahead in decoded bytes, or null (default) for automatic: bandwidth × latency, i.e.
    /// <see cref="TargetBandwidthBytesPerSecond"/> × the observed median time to first byte × 2,
    /// clamped to [<see cref="MinReadAheadSegments"/> segments, <see cref="ReadAheadCeilingBytes"/>].
    /// </summary>
    public long? MaxReadAheadBytes { get; init; }

    /// <summary>The rate the automatic read-ahead is sized to sustain. Default 500 MB/s.</summary>
    public long TargetBandwidthBytesPerSecond { get; init; } = 500_000_000;

    /// <summary>
    /// Read-ahead requested by the first read of a stream opened at the start of a file for the
    /// whole file (a download, a copy, the FullNzbTester). Default 64 MiB: growing from a few
    /// segments costs a round trip or two before a fast reader runs at full rate. From there the
    /// read-ahead follows the reader: a reader that waits doubles it per segment, a paced one is
    /// fitted to its rate. Only a stream opened while no other stream reads gets it; others start
    /// at <see cref="RangedStartReadAheadBytes"/>.
    /// </summary>
    public long StartReadAheadBytes { get; init; } = 64L * 1024 * 1024;

    /// <summary>
    /// The same for a reader that asked for a byte range (a GET with a Range header: rclone's mount,
    /// a player, a probe), which often stops after a header or seeks away. Default 4 MiB, about a
    /// second of a high-bitrate film; a reader that drains it doubles it per segment consumed.
    /// </summary>
    public long RangedStartReadAheadBytes { get; init; } = 4L * 1024 * 1024;

    /// <summary>
    /// Time a paced reader's read-ahead covers beyond two fetch latencies, at its measured rate
    /// (a 40 Mbit/s player at 50 ms: about 5.5 MB). Default 1 s.
    /// </summary>
    public TimeSpan ReadAheadLead { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Decoded bytes all streams together may hold or have in flight: read-ahead plus the segment
    /// cache (<see cref="SegmentCacheBytes"/>). A fast reader alone may use most of it; many
    /// streams share it by need. Default 112 MiB (48 of read-ahead beside the 64 MiB cache): the
    /// runtime and the host hold 230–260 MiB beside it under load, so a budget used to the full
    /// keeps the process under 400 MB whatever the load (docs/reliability.md §2). One fast reader
    /// still gets the read-ahead its bandwidth and latency ask for (500 MB/s at 50 ms: 48 MiB);
    /// ten paced players need about 40.
    /// </summary>
    public long MemoryBudgetBytes { get; init; } = 112L * 1024 * 1024;

    /// <summary>What every stream's read-ahead may span together: the memory budget less the cache.</summary>
    public long ReadAheadBudgetBytes => Math.Max(0, MemoryBudgetBytes - SegmentCacheBytes);

    /// <summary>The read-ahead never drops below this many segments. Default 4.</summary>
    public int MinReadAheadSegments { get; init; } = 4;

    /// <summary>
    /// Decoded bytes of segments kept for other readers, host-wide: what probes read (a file's first
    /// and last segments, the first after a seek, short ranged reads), segments of a file several
    /// streams read at once, read-ahead a stream left unread. 0 keeps nothing (fetches in flight
    /// are still shared). Default 64 MiB: a library scan's probes of some 45 files (48 MiB let a
    /// scrubbing load evict them: the soak's p99 read wait went 0.1 → 0.6 s).
    /// </summary>
    public long SegmentCacheBytes { get; init; } = 64L * 1024 * 1024;

    /// <summary>
    /// Segments kept behind the reader so a short seek back is served from memory. Default 2.
    /// </summary>
    public int KeepBehindSegments { get; init; } = 2;

    /// <summary>
    /// A head-of-line segment (the one the reader waits for) is fetched again on another connection
    /// once it has been out this many times the median fetch time, or once its connection has sent
    /// nothing for this many times the median time to first byte (a stalled connection). Default 3.
    /// </summary>
    public double StragglerFactor { get; init; } = 3.0;

    /// <summary>...and (by the first measure) more than this many times the fastest time to first byte seen. Default 2.</summary>
    public double StragglerLatencyFloorFactor { get; init; } = 2.0;

    /// <summary>...and never sooner than this (so a fast LAN does not race on noise). Default 100 ms.</summary>
    public TimeSpan MinimumStragglerDelay { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>A connection with nothing to fetch for this long goes back to the pool. Default 1 s.</summary>
    public TimeSpan WorkerIdleTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Fetches of one segment (first try included) before the read fails; the later ones go to other
    /// connections and, when configured, other providers. Default 3.
    /// </summary>
    public int MaxAttemptsPerSegment { get; init; } = 3;

    /// <summary>
    /// True (default): the reader gets an article's bytes as they are decoded, before its CRC is
    /// checked, which hides transfer time. A part that then fails its CRC is fetched again and the
    /// bytes already returned are compared with the good copy; if they differ the read fails
    /// (never wrong data). False: only CRC-verified segments are returned.
    /// </summary>
    public bool ServeUnverifiedBytes { get; init; } = true;

    /// <summary>How the fetch engine works for one stream: streaming pool, races for the segment the reader waits on.</summary>
    internal FetchGroupOptions ToFetchGroupOptions(TimeSpan? seedLatency) => new()
    {
        Kind = OperationKind.Streaming,
        ConnectionCap = ConnectionsPerStream,
        MaxAttempts = MaxAttemptsPerSegment,
        DemandFactor = 2,
        IdleTimeout = WorkerIdleTimeout,
        RaceStragglers = true,
        ShareWhenContended = true,
        StragglerFactor = StragglerFactor,
        StragglerLatencyFloorFactor = StragglerLatencyFloorFactor,
        MinimumStragglerDelay = MinimumStragglerDelay,
        SeedLatency = seedLatency,
    };

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        Require(ConnectionsPerStream >= 1, nameof(ConnectionsPerStream), "must be at least 1");
        Require(MaxReadAheadBytes is null or (> 0 and <= ReadAheadCeilingBytes), nameof(MaxReadAheadBytes), $"must be null (automatic) or between 1 and {ReadAheadCeilingBytes}");
        Require(RangedStartReadAheadBytes is > 0 and <= ReadAheadCeilingBytes, nameof(RangedStartReadAheadBytes), $"must be between 1 and {ReadAheadCeilingBytes}");
        Require(StartReadAheadBytes is > 0 and <= ReadAheadCeilingBytes, nameof(StartReadAheadBytes), $"must be between 1 and {ReadAheadCeilingBytes}");
        Require(TargetBandwidthBytesPerSecond > 0, nameof(TargetBandwidthBytesPerSecond), "must be positive");
        Require(MinReadAheadSegments is >= 1 and <= 1024, nameof(MinReadAheadSegments), "must be between 1 and 1024");
        Require(ReadAheadLead >= TimeSpan.Zero && ReadAheadLead <= TimeSpan.FromMinutes(1), nameof(ReadAheadLead), "must be between 0 and 1 minute");
        Require(MemoryBudgetBytes > SegmentCacheBytes, nameof(MemoryBudgetBytes), $"must be larger than {nameof(SegmentCacheBytes)} (the rest is for read-ahead)");
        Require(SegmentCacheBytes is >= 0 and <= 64L * 1024 * 1024 * 1024, nameof(SegmentCacheBytes), "must be between 0 and 64 GiB");
        Require(KeepBehindSegments is >= 0 and <= 64, nameof(KeepBehindSegments), "must be between 0 and 64");
        Require(StragglerFactor >= 1, nameof(StragglerFactor), "must be at least 1");
        Require(StragglerLatencyFloorFactor >= 1, nameof(StragglerLatencyFloorFactor), "must be at least 1");
        Require(MinimumStragglerDelay > TimeSpan.Zero, nameof(MinimumStragglerDelay), "must be positive");
        Require(WorkerIdleTimeout > TimeSpan.Zero, nameof(WorkerIdleTimeout), "must be positive");
        Require(MaxAttemptsPerSegment is >= 1 and <= 16, nameof(MaxAttemptsPerSegment), "must be between 1 and 16");
    }

    private static void Require(bool condition, string name, string rule)
    {
        if (!condition)
        {
            throw new ArgumentException($"{nameof(StreamingOptions)}.{name} {rule}.");
        }
    }
}
