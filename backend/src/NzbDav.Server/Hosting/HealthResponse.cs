using NzbDav.Server.Mount;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Body of <c>GET /health</c>. <see cref="Status"/> is "ok", or "degraded" while the managed mount
/// is enabled but not mounted (the server itself still serves; see <see cref="Mount"/> for why).
/// </summary>
public sealed record HealthResponse(string Status, HealthMount? Mount = null)
{
    public static HealthResponse Of(MountSnapshot mount, bool enabled) =>
        !enabled
            ? new("ok")
            : new(mount.Phase == MountPhase.Mounted ? "ok" : "degraded", new HealthMount(
                mount.Phase.ToString().ToLowerInvariant(), mount.Path, mount.Since, mount.LastError, mount.LastErrorAt, mount.Restarts,
                mount.RcloneVersion, mount.Links, mount.CacheBytes));
}

/// <summary>The managed mount: state (starting, mounted, failed, stopping), since when, the last error, restarts, rclone's version, symlinks on, VFS cache bytes.</summary>
public sealed record HealthMount(
    string State, string Path, DateTimeOffset Since, string? LastError, DateTimeOffset? LastErrorAt, int Restarts, string? RcloneVersion, bool Links, long? CacheBytes);
