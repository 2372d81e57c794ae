namespace NzbDav.Server.Traffic;

/// <summary>What a request was for, as far as its bytes tell: a scanner's look at a file's head or tail, or playback.</summary>
public enum ReadPattern
{
    /// <summary>A short read at a file's start or end: media analysis, ffprobe, a thumbnailer, a directory scanner.</summary>
    Probe,

    /// <summary>Anything longer or in the middle: a player.</summary>
    Playback,
}

/// <summary>
/// Who caused a request's bytes: the client program (from its User-Agent), the account it used, and
/// the pattern of its read. <see cref="Key"/> is what traffic is counted under ("Plex Media Server ·
/// probe", "rclone (user alice) · playback").
/// </summary>
public sealed record TrafficConsumer(string Client, string? Account, ReadPattern Pattern)
{
    public string Key => (Account is null ? Client : $"{Client} ({Account})") + (Pattern == ReadPattern.Probe ? " · probe" : " · playback");
}

/// <summary>
/// Names the consumer of a WebDAV or HTTP read. A read through an rclone mount carries rclone's own
/// User-Agent whoever is behind the mount, so the pattern (head or tail, short) is what tells a
/// scanner from a player there.
/// </summary>
public static class TrafficConsumers
{
    /// <summary>Reads within this many bytes of a file's start or end, and no longer than it, count as a probe.</summary>
    public const long ProbeReach = 32L * 1024 * 1024;

    // Order matters: the first match names the client (an ffmpeg inside Jellyfin says "Lavf").
    private static readonly (string Marker, string Client)[] Clients =
    [
        ("PlexMediaServer", "Plex Media Server"),
        ("Plex Media Server", "Plex Media Server"),
        ("Jellyfin", "Jellyfin"),
        ("Emby", "Emby"),
        ("Lavf", "ffmpeg/ffprobe"),
        ("rclone", "rclone"),
        ("Sonarr", "Sonarr"),
        ("Radarr", "Radarr"),
        ("Kodi", "Kodi"),
        ("VLC", "VLC"),
        ("mpv", "mpv"),
        ("curl", "curl"),
        ("Wget", "wget"),
        ("Go-http-client", "Go HTTP client"),
        ("Mozilla/", "Web browser"),
    ];

    /// <summary>The client program a User-Agent names ("rclone", "Plex Media Server", …), "unknown client" when none is known.</summary>
    public static string ClientOf(string? userAgent)
    {
        if (string.IsNullOrWhiteSpace(userAgent))
            return "unknown client";
        foreach (var (marker, client) in Clients)
        {
            if (userAgent.Contains(marker, StringComparison.OrdinalIgnoreCase))
                return client;
        }

        return "unknown client";
    }

    /// <summary>
    /// Probe or playback, from where a read started, how much it took and the file's size: a read of at
    /// most <see cref="ProbeReach"/> that stays within <see cref="ProbeReach"/> of the start or the end is a probe.
    /// </summary>
    public static ReadPattern PatternOf(long start, long bytesRead, long fileSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        ArgumentOutOfRangeException.ThrowIfNegative(bytesRead);
        if (bytesRead > ProbeReach)
            return ReadPattern.Playback;
        var end = start + bytesRead;
        var nearStart = end <= ProbeReach;
        var nearEnd = fileSize > 0 && start >= fileSize - ProbeReach;
        return nearStart || nearEnd ? ReadPattern.Probe : ReadPattern.Playback;
    }

    /// <summary>The consumer of one read: its client, the account it authenticated as (WebDAV user, API key owner), its pattern.</summary>
    public static TrafficConsumer Of(string? userAgent, string? account, long start, long bytesRead, long fileSize) =>
        new(ClientOf(userAgent), string.IsNullOrWhiteSpace(account) ? null : account.Trim(), PatternOf(start, bytesRead, fileSize));
}
