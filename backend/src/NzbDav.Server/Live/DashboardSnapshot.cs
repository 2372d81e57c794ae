using NzbDav.Server.Mount;
using NzbDav.Streaming;

namespace NzbDav.Server.Live;

/// <summary>What the dashboard shows, as of one tick of the live feed (JSON, camelCase).</summary>
public sealed record DashboardSnapshot(
    long Sequence,
    DateTimeOffset At,
    double IntervalSeconds,
    double ServedBytesPerSecond,
    double FetchedBytesPerSecond,
    long ServedBytes,
    long FetchedBytes,
    IReadOnlyList<StreamView> Streams,
    IReadOnlyList<ProviderView> Providers,
    LimiterView Limiter,
    MountView Mount,
    EconomyView Economy,
    DiskCacheView? DiskCache,
    BandwidthView? Bandwidth = null,
    IReadOnlyList<Cluster.NodeView>? Nodes = null);

/// <summary>
/// The provider bandwidth cap while one is configured: <c>bytesPerSecond</c> in force now (null: full
/// speed now, by the schedule), whether it <c>binds</c> (a read waited its turn in the last second),
/// the reads <c>waiting</c> now and <c>waitedReads</c> since the start.
/// </summary>
public sealed record BandwidthView(long? BytesPerSecond, bool Binds, int Waiting, long WaitedReads)
{
    public static BandwidthView? Of(NzbDav.Usenet.Limiting.BandwidthLimiter? limiter) =>
        limiter is { IsConfigured: true } ? new BandwidthView(limiter.GlobalRate, limiter.IsBinding, limiter.Waiting, limiter.WaitedReads) : null;
}

/// <summary>
/// One response body being sent: file, client, where it is, how fast it went over the last tick, and
/// what it cost the providers: <c>fetchedBytes</c> decoded bytes fetched for it, <c>sharedBytes</c>
/// taken from the segment cache or another stream's fetch instead, and <c>fetchedPerSent</c> = fetched
/// ÷ <c>sentBytes</c> (null until a byte was sent, or when the source cannot say: a decrypting stream);
/// below 1 when other readers' segments were reused.
/// </summary>
public sealed record StreamView(long Id, string Path, string? Client, long Position, long End, long FileSize, double BytesPerSecond, DateTimeOffset Started, long? ReadAheadBytes,
    long SentBytes, long? FetchedBytes, long? SharedBytes, double? FetchedPerSent)
{
    /// <summary>Fetched ÷ sent to three decimals; null when nothing was sent yet or fetched is unknown.</summary>
    public static double? Ratio(long? fetched, long sent) => fetched is { } bytes && sent > 0 ? Math.Round((double)bytes / sent, 3) : null;
}

/// <summary>
/// Provider economy of streaming since the server started: bytes served to readers and decoded bytes
/// fetched for them (<c>fetchedPerServed</c> = fetched ÷ served, null before anything was served), the
/// segment cache (bytes held now; hits, misses and <c>cacheHitRate</c> = hits ÷ (hits + misses), null
/// before any lookup; bytes the hits saved), fetches another stream joined
/// instead of asking a provider again, and the host-wide read-ahead in use against its limit (and
/// how many streams hold some of it). Counters read once per tick, nothing per byte.
/// </summary>
public sealed record EconomyView(
    long ServedBytes,
    long FetchedBytes,
    double? FetchedPerServed,
    long CacheBytes,
    long CacheHits,
    long CacheMisses,
    double? CacheHitRate,
    long CacheHitBytes,
    long SharedFetches,
    long SharedFetchBytes,
    long ReadAheadBytes,
    long ReadAheadLimitBytes,
    int ReadAheadStreams)
{
    public static EconomyView Of(StreamingMetrics metrics)
    {
        ArgumentNullException.ThrowIfNull(metrics);
        var served = metrics.ServedBytes;
        var fetched = metrics.FetchedBytes;
        var cache = metrics.Cache;
        var hits = cache?.Hits ?? 0;
        var misses = cache?.Misses ?? 0;
        var budget = metrics.Budget;
        return new EconomyView(
            served, fetched, served > 0 ? Math.Round((double)fetched / served, 3) : null,
            cache?.Bytes ?? 0, hits, misses, hits + misses > 0 ? Math.Round((double)hits / (hits + misses), 4) : null, cache?.HitBytes ?? 0,
            cache?.SharedFetches ?? 0, cache?.SharedFetchBytes ?? 0,
            budget?.Claimed ?? 0, budget?.Limit ?? 0, budget?.Claimants ?? 0);
    }
}

/// <summary>
/// The disk segment cache (null while <c>Cache:Path</c> is empty): its folder, bytes held against
/// its limit (of them, probes' heads and tails), segments, hits and misses since the server started
/// with <c>hitRate</c> = hits ÷ (hits + misses) (null before any lookup), <c>savedBytes</c> the
/// provider bytes the hits saved, what was written, evictions by reason, CRC failures, writes
/// dropped, played segments skipped above the playback write rate, and <c>degraded</c>: why writes are off now (null while it works).
/// </summary>
public sealed record DiskCacheView(
    string Path,
    long Bytes,
    long MaxBytes,
    long ProbeBytes,
    int Segments,
    long Hits,
    long Misses,
    double? HitRate,
    long SavedBytes,
    long WrittenBytes,
    long EvictedPlayback,
    long EvictedProbes,
    long CorruptReads,
    long DroppedWrites,
    long SkippedPlayback,
    string? Degraded)
{
    public static DiskCacheView? Of(NzbDav.Streaming.Disk.DiskSegmentStore? store)
    {
        if (store is null)
            return null;
        var hits = store.Hits;
        var misses = store.Misses;
        return new DiskCacheView(store.Path, store.Bytes, store.MaxBytes, store.ProbeBytes, store.Count, hits, misses,
            hits + misses > 0 ? Math.Round((double)hits / (hits + misses), 4) : null, store.HitBytes, store.WrittenBytes,
            store.EvictedPlayback, store.EvictedProbes, store.CorruptReads, store.DroppedWrites, store.SkippedPlayback, store.Degraded);
    }
}

/// <summary>One provider: its sessions and what it answered over the last tick.</summary>
public sealed record ProviderView(
    string Name,
    string Role,
    int Priority,
    string Circuit,
    int Open,
    int InUse,
    int Idle,
    int MaxConnections,
    int Waiters,
    double ArticlesPerSecond,
    double FetchedBytesPerSecond,
    double? LatencyMs,
    long Missing,
    long Errors,
    long CrcMismatches)
{
    /// <summary>
    /// In words: "ok"; "failing" (errors since the last success, still used); "down" (skipped until
    /// `retryAt`); "retrying" (one trial in flight); "quota" (its byte allowance is spent: skipped
    /// until it resets, `quota` says which and when).
    /// </summary>
    public required string State { get; init; }

    /// <summary>Why the provider is passed over for its quota ("daily quota of 1.0 GB reached …"), or null.</summary>
    public string? Quota { get; init; }

    /// <summary>Failed connects and broken sessions since start (articles that failed count in `errors`).</summary>
    public required long ConnectionFailures { get; init; }

    /// <summary>The first failure since the provider last worked; null while it works.</summary>
    public required DateTimeOffset? FailingSince { get; init; }

    /// <summary>When a down provider gets its next trial.</summary>
    public required DateTimeOffset? RetryAt { get; init; }

    /// <summary>The latest connection-level failure in plain words, kept after recovery.</summary>
    public required string? LastError { get; init; }

    /// <summary>When `lastError` happened.</summary>
    public required DateTimeOffset? LastErrorAt { get; init; }
}

/// <summary>The GlobalOperationLimiter: its budget and each pool's use against its guarantee and maximum.</summary>
public sealed record LimiterView(int Capacity, int InUse, IReadOnlyList<PoolView> Pools)
{
    /// <summary>The pools as the limiter has them: in use, guaranteed, maximum and waiting, per kind.</summary>
    public static LimiterView Of(NzbDav.Usenet.Limiting.LimiterStats stats, NzbDav.Usenet.Limiting.LimiterOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var total = options.TotalConnections;
        return new LimiterView(stats.Capacity, stats.InUse,
        [
            new PoolView("streaming", stats.StreamingInUse, options.StreamingGuarantee, total, stats.StreamingWaiting),
            new PoolView("queue", stats.QueueInUse, options.QueueGuarantee, options.QueueMaximum ?? total, stats.QueueWaiting),
            new PoolView("health check", stats.HealthCheckInUse, options.HealthCheckGuarantee, options.HealthCheckMaximum ?? total, stats.HealthCheckWaiting),
        ]);
    }
}

public sealed record PoolView(string Name, int InUse, int Guaranteed, int Maximum, int Waiting);

/// <summary>
/// The managed rclone mount (<c>Mount:Enabled</c>): <see cref="State"/> is off, starting, mounted,
/// failed (waiting to start again; `lastError` says why) or stopping; <see cref="Path"/> is
/// <c>NzbDav:MountPath</c>; <see cref="CacheBytes"/> the VFS cache's use when rclone last reported it.
/// </summary>
public sealed record MountView(
    bool Enabled, string State, string Path, DateTimeOffset Since, string? LastError, DateTimeOffset? LastErrorAt, int Restarts,
    string? RcloneVersion, bool Links, long? CacheBytes)
{
    public static MountView Of(MountSnapshot mount, bool enabled, string mountPath)
    {
        ArgumentNullException.ThrowIfNull(mount);
        return new(enabled, enabled ? mount.Phase.ToString().ToLowerInvariant() : "off", string.IsNullOrEmpty(mount.Path) ? mountPath : mount.Path,
            mount.Since, mount.LastError, mount.LastErrorAt, mount.Restarts, mount.RcloneVersion, mount.Links, mount.CacheBytes);
    }
}
