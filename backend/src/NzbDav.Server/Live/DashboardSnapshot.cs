using NzbDav.Server.Mount;

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
    MountView Mount);

/// <summary>One response body being sent: file, client, where it is, how fast it went over the last tick.</summary>
public sealed record StreamView(long Id, string Path, string? Client, long Position, long End, long FileSize, double BytesPerSecond, DateTimeOffset Started, long? ReadAheadBytes);

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
    long CrcMismatches);

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
/// failed (waiting to start again; <see cref="LastError"/> says why) or stopping; <see cref="Path"/> is
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
