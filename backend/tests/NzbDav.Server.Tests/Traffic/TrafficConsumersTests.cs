using NzbDav.Server.Traffic;

namespace NzbDav.Server.Tests.Traffic;

/// <summary>Who caused a read's bytes: the client from real User-Agent strings, and probe or playback from the read's place and length.</summary>
public sealed class TrafficConsumersTests
{
    private const long MiB = 1024 * 1024;

    [Theory]
    [InlineData("PlexMediaServer/1.40.2.8395-c67dce28e", "Plex Media Server")]
    [InlineData("Plex Media Server/1.32.5.7349", "Plex Media Server")]
    [InlineData("Jellyfin-Server/10.9.11", "Jellyfin")]
    [InlineData("Emby Server/4.8.10.0", "Emby")]
    [InlineData("Lavf/60.16.100", "ffmpeg/ffprobe")]
    [InlineData("rclone/v1.60.1-DEV", "rclone")]
    [InlineData("Sonarr/4.0.14.2939 (ubuntu 22.04)", "Sonarr")]
    [InlineData("Radarr/5.21.1.9799 (debian 12)", "Radarr")]
    [InlineData("Kodi/21.1 (X11; Linux x86_64) App_Bitness/64", "Kodi")]
    [InlineData("VLC/3.0.20 LibVLC/3.0.20", "VLC")]
    [InlineData("curl/8.5.0", "curl")]
    [InlineData("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Web browser")]
    [InlineData("SomethingNew/1.0", "unknown client")]
    [InlineData("", "unknown client")]
    [InlineData(null, "unknown client")]
    public void The_client_is_named_from_its_user_agent(string? userAgent, string expected) =>
        Assert.Equal(expected, TrafficConsumers.ClientOf(userAgent));

    [Theory]
    [InlineData(0, 64 * 1024, 4096 * MiB, ReadPattern.Probe)] // a head read (ffprobe, Plex analysis)
    [InlineData(4096 * MiB - (2 * MiB), 2 * MiB, 4096 * MiB, ReadPattern.Probe)] // the tail: an MKV's cues, an MP4's moov
    [InlineData(0, 31 * MiB, 4096 * MiB, ReadPattern.Probe)]
    [InlineData(0, 33 * MiB, 4096 * MiB, ReadPattern.Playback)] // longer than a probe reaches: playing from the start
    [InlineData(2048 * MiB, 1 * MiB, 4096 * MiB, ReadPattern.Playback)] // a seek into the middle
    [InlineData(0, 10 * MiB, 10 * MiB, ReadPattern.Probe)] // a small file read whole
    [InlineData(0, 0, 0, ReadPattern.Probe)]
    public void A_short_read_at_either_end_is_a_probe_and_anything_else_playback(long start, long read, long size, ReadPattern expected) =>
        Assert.Equal(expected, TrafficConsumers.PatternOf(start, read, size));

    [Fact]
    public void The_key_names_client_account_and_pattern()
    {
        Assert.Equal("rclone (alice) · playback", TrafficConsumers.Of("rclone/v1.68.2", " alice ", 100 * MiB, 50 * MiB, 4096 * MiB).Key);
        Assert.Equal("Plex Media Server · probe", TrafficConsumers.Of("PlexMediaServer/1.40", null, 0, MiB, 4096 * MiB).Key);
        Assert.Throws<ArgumentOutOfRangeException>(() => TrafficConsumers.PatternOf(-1, 0, 10));
    }
}
