using NzbDav.Server.Mount;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Body of <c>GET /health</c>. <see cref="Status"/> is "ok", or "degraded" while the managed mount
/// is enabled but not mounted, while the disk segment cache cannot write, or while the library store
/// cannot be reached (the server itself still answers; <see cref="Mount"/>, <see cref="DiskCache"/>
/// and <see cref="Store"/> say why).
/// </summary>
public sealed record HealthResponse(string Status, HealthMount? Mount = null, HealthDiskCache? DiskCache = null, Cluster.StoreState? Store = null)
{
    public static HealthResponse Of(MountSnapshot mount, bool enabled, NzbDav.Streaming.Disk.DiskSegmentStore? disk = null, Cluster.StoreState? store = null)
    {
        var mountView = !enabled
            ? null
            : new HealthMount(
                mount.Phase.ToString().ToLowerInvariant(), mount.Path, mount.Since, mount.LastError, mount.LastErrorAt, mount.Restarts,
                mount.RcloneVersion, mount.Links, mount.CacheBytes);
        var diskView = disk is null ? null : new HealthDiskCache(disk.Degraded is null ? "ok" : "degraded", disk.Path, disk.Degraded);
        var degraded = (mountView is not null && mount.Phase != MountPhase.Mounted) || disk?.Degraded is not null || store is { State: "unreachable" };
        return new(degraded ? "degraded" : "ok", mountView, diskView, store);
    }
}

/// <summary>The disk segment cache: "ok", or "degraded" with the reason (reads go to the providers meanwhile, nothing fails).</summary>
public sealed record HealthDiskCache(string State, string Path, string? Reason);

/// <summary>The managed mount: state (starting, mounted, failed, stopping), since when, the last error, restarts, rclone's version, symlinks on, VFS cache bytes.</summary>
public sealed record HealthMount(
    string State, string Path, DateTimeOffset Since, string? LastError, DateTimeOffset? LastErrorAt, int Restarts, string? RcloneVersion, bool Links, long? CacheBytes);
