using System.Security.Cryptography;
using System.Text.Json;
using NzbDav.Server.Tests.Data;
using NzbDav.Testing;

namespace NzbDav.Server.Tests.RealClients;

/// <summary>The real rclone webdav backend (vendor other, obscured password) against the real host.</summary>
public sealed class RcloneTests(MockProviderFixture provider)
{
    private const string Job = "Rclone.Show.S01E01";
    private const string Video = "Rclone.Show.S01E01.mkv";
    private const string Extra = "Rclone.Show.S01E01.srt";
    private const int SegmentSize = 100_000;

    [Fact]
    public async Task Rclone_lists_exact_sizes_reads_exact_ranges_and_copies_whole_files()
    {
        var ct = TestContext.Current.CancellationToken;
        // Odd sizes, so a size rounded to articles or a short last read would show.
        var video = RandomBytes(2_500_003, 7);
        var extra = RandomBytes(12_345, 8);
        await using var run = await RealClientRun.StartAsync(provider, Job, [(Video, video), (Extra, extra)], SegmentSize, ct);
        using var work = new TempDirectory();
        var config = await RcloneConfig.WriteAsync(run, work.Path, ct);

        var listing = await ExternalTool.RunCheckedAsync("rclone", ["--config", config, "lsjson", "-R", "nzbdav:content"], ct);
        var sizes = JsonDocument.Parse(listing).RootElement.EnumerateArray()
            .Where(e => !e.GetProperty("IsDir").GetBoolean())
            .ToDictionary(e => e.GetProperty("Path").GetString()!, e => e.GetProperty("Size").GetInt64());
        Assert.Equal(2, sizes.Count);
        Assert.Equal(video.Length, sizes[$"tv/{Job}/{Video}"]);
        Assert.Equal(extra.Length, sizes[$"tv/{Job}/{Extra}"]);

        var remote = $"nzbdav:content/tv/{Job}/{Video}";
        foreach (var (offset, count) in Ranges(video.Length))
        {
            var bytes = await ExternalTool.RunCheckedAsync("rclone",
                ["--config", config, "cat", "--offset", offset.ToString(), "--count", count.ToString(), remote], ct);
            Assert.True(video.AsSpan(offset, count).SequenceEqual(bytes), $"rclone cat --offset {offset} --count {count} returned different bytes ({bytes.Length} bytes)");
        }

        var copyTo = Path.Combine(work.Path, "copy");
        await ExternalTool.RunCheckedAsync("rclone", ["--config", config, "copy", remote, copyTo], ct);
        var copied = await File.ReadAllBytesAsync(Path.Combine(copyTo, Video), ct);
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(video)), Convert.ToHexStringLower(SHA256.HashData(copied)));
    }

    private static IEnumerable<(int Offset, int Count)> Ranges(int length)
    {
        // Fixed edges (start, an article boundary, the last byte) plus seeded random ranges.
        yield return (0, 1000);
        yield return (SegmentSize - 10, 20);
        yield return (length - 1, 1);
        var random = new Random(42);
        for (var i = 0; i < 5; i++)
        {
            var offset = random.Next(0, length - 1);
            yield return (offset, random.Next(1, Math.Min(400_000, length - offset) + 1));
        }
    }

    private static byte[] RandomBytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
