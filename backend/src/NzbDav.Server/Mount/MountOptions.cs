namespace NzbDav.Server.Mount;

/// <summary>
/// The rclone mount NzbDav runs of its own WebDAV tree (section <c>Mount</c>) at
/// <c>NzbDav:MountPath</c>. A change applies at runtime: the mount is restarted with the new values.
/// Sizes and durations are written as rclone takes them ("20G", "24h"). See docs/mount.md.
/// </summary>
public sealed class MountOptions
{
    public const string SectionName = "Mount";

    /// <summary>Run and supervise the mount. Default off (the image's compose file turns it on).</summary>
    public bool Enabled { get; set; }

    /// <summary>The rclone executable: a name looked up on PATH, or a full path. Default "rclone".</summary>
    public string Rclone { get; set; } = "rclone";

    /// <summary>rclone's VFS cache. Default &lt;DataDirectory&gt;/rclone-cache.</summary>
    public string? CacheDirectory { get; set; }

    /// <summary><c>--vfs-cache-mode</c>: ranges read are kept on disk, so re-reads and seeks back cost no Usenet traffic. Default "full".</summary>
    public string VfsCacheMode { get; set; } = "full";

    /// <summary><c>--vfs-cache-max-size</c>. Default "20G".</summary>
    public string VfsCacheMaxSize { get; set; } = "20G";

    /// <summary><c>--vfs-cache-max-age</c>. Default "24h".</summary>
    public string VfsCacheMaxAge { get; set; } = "24h";

    /// <summary>
    /// <c>--dir-cache-time</c>: how long a listing is trusted. NzbDav refreshes the folders a job
    /// adds or removes itself, so this only bounds what a missed refresh can hide. Default "30s".
    /// </summary>
    public string DirCacheTime { get; set; } = "30s";

    /// <summary><c>--buffer-size</c> per open file. Default "64M".</summary>
    public string BufferSize { get; set; } = "64M";

    /// <summary><c>--vfs-read-chunk-size</c>: small first ranges keep probes cheap. Default "32M".</summary>
    public string ReadChunkSize { get; set; } = "32M";

    /// <summary><c>--vfs-read-chunk-size-limit</c>. Default "512M".</summary>
    public string ReadChunkSizeLimit { get; set; } = "512M";

    /// <summary><c>--allow-other</c>: Sonarr, Plex and other users may read the mount (non-root needs user_allow_other in /etc/fuse.conf). Default on.</summary>
    public bool AllowOther { get; set; } = true;

    /// <summary><c>--uid</c> of the files in the mount; null: NzbDav's own.</summary>
    public int? Uid { get; set; }

    /// <summary><c>--gid</c> of the files in the mount; null: NzbDav's own.</summary>
    public int? Gid { get; set; }

    /// <summary><c>--umask</c>. Default "002".</summary>
    public string Umask { get; set; } = "002";

    /// <summary>
    /// <c>--links</c> (symlinks from /completed's .rclonelink entries). Null: on when the rclone
    /// found supports symlinks in a mount (1.69 or later), else off with a warning to use .strm entries.
    /// </summary>
    public bool? Links { get; set; }

    /// <summary>More rclone flags, one argument per entry, appended last (they win over the ones above).</summary>
    public List<string> ExtraArguments { get; set; } = [];

    /// <summary>How long rclone may take to mount before the attempt counts as failed. Default 30 s.</summary>
    public TimeSpan MountTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The longest wait before restarting a mount that failed; the wait doubles from 1 s up to it. Default 1 minute.</summary>
    public TimeSpan MaxRestartDelay { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        Require(!string.IsNullOrWhiteSpace(Rclone), nameof(Rclone), "must name the rclone executable");
        Require(VfsCacheMode is "off" or "minimal" or "writes" or "full", nameof(VfsCacheMode), "must be off, minimal, writes or full");
        Require(Umask.Length is >= 1 and <= 4 && Umask.All(static c => c is >= '0' and <= '7'), nameof(Umask), "must be an octal mask such as 002");
        Require(Uid is null or >= 0, nameof(Uid), "must not be negative");
        Require(Gid is null or >= 0, nameof(Gid), "must not be negative");
        Require(MountTimeout >= TimeSpan.FromSeconds(1), nameof(MountTimeout), "must be at least 1 second");
        Require(MaxRestartDelay >= TimeSpan.FromSeconds(1), nameof(MaxRestartDelay), "must be at least 1 second");
        foreach (var (value, name) in new[] { (VfsCacheMaxSize, nameof(VfsCacheMaxSize)), (VfsCacheMaxAge, nameof(VfsCacheMaxAge)), (DirCacheTime, nameof(DirCacheTime)), (BufferSize, nameof(BufferSize)), (ReadChunkSize, nameof(ReadChunkSize)), (ReadChunkSizeLimit, nameof(ReadChunkSizeLimit)) })
            Require(!string.IsNullOrWhiteSpace(value) && !value.Contains(' ', StringComparison.Ordinal), name, "must be one rclone value such as 20G or 24h");
    }

    private static void Require(bool condition, string name, string rule)
    {
        if (!condition)
            throw new ArgumentException($"Mount:{name} {rule}.");
    }
}
