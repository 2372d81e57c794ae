using System.Security.Cryptography;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>
/// <c>rclone mount</c> with the flags docs/rclone-plex-jellyfin.md recommends, read through the
/// kernel like Plex does. Skips, saying why, where FUSE cannot be used (many CI containers).
/// </summary>
[SlowTest("a real rclone FUSE mount")]
public sealed class RcloneMountTests(MockProviderFixture provider)
{
    private const string Job = "Mount.Show.S01E01";
    private const string Video = "Mount.Show.S01E01.mkv";
    private const int SegmentSize = 100_000;

    [Fact]
    public async Task A_mounted_file_reads_back_exact_ranges_and_whole()
    {
        var ct = TestContext.Current.CancellationToken;
        if (RcloneMount.Unusable(out var fusermount) is { } reason)
            Assert.Skip("FUSE is not usable here: " + reason);
        var video = new byte[3_000_017];
        new Random(11).NextBytes(video);
        await using var run = await RealClientRun.StartAsync(provider, Job, [(Video, video)], SegmentSize, ct);
        using var work = new TempDirectory();
        var config = await RcloneConfig.WriteAsync(run, work.Path, ct);
        var relative = Path.Combine("content", "tv", Job, Video);

        var (mount, failure) = await RcloneMount.StartAsync(fusermount, config, "nzbdav:", Path.Combine(work.Path, "mnt"), relative,
        [
            "--webdav-vendor", "other", "--vfs-cache-mode", "full", "--cache-dir", Path.Combine(work.Path, "cache"),
            "--vfs-read-chunk-size", "32M", "--vfs-read-chunk-size-limit", "512M", "--buffer-size", "64M", "--dir-cache-time", "10s",
        ], ct);
        if (mount is null)
            Assert.Skip("FUSE is not usable here: " + failure);
        await using (mount)
        {
            var file = Path.Combine(mount.Path, relative);
            Assert.Equal(video.Length, new FileInfo(file).Length);
            await using (var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.Read, 1, useAsync: true))
            {
                // A header, a range across an article boundary and the tail, as a media probe reads them.
                foreach (var (offset, count) in new[] { (0, 65_536), ((2 * SegmentSize) - 1000, 5000), (video.Length - 4096, 4096) })
                {
                    var buffer = new byte[count];
                    stream.Seek(offset, SeekOrigin.Begin);
                    await stream.ReadExactlyAsync(buffer, ct);
                    Assert.True(video.AsSpan(offset, count).SequenceEqual(buffer), $"bytes {offset}..{offset + count} differ through the mount");
                }
            }

            var whole = await File.ReadAllBytesAsync(file, ct);
            Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(video)), Convert.ToHexStringLower(SHA256.HashData(whole)));
        }
    }
}
