using NzbDav.Archives.Release;

namespace NzbDav.Archives.Tests.Release;

public sealed class Par2ToolTests(Par2ToolFixture tool) : IClassFixture<Par2ToolFixture>
{
    internal static readonly (string Name, int Length)[] ReleaseFiles =
    [
        ("Show.S01E01.1080p.WEB.h264-GRP.mkv", 300_000),
        ("Show.S01E01.1080p.WEB.h264-GRP.nfo", 1_234),
        ("Show.S01E01.1080p.WEB.h264-GRP.English.srt", 16_384),
        ("Caf\u00e9 \u00fc.mkv", 16_385),
    ];

    [Fact]
    public async Task Descriptions_from_par2_create_match_the_files()
    {
        using var dir = new TempDirectory();
        var contents = ReleaseFiles.Select((f, i) => dir.WriteRandomFile(f.Name, f.Length, i)).ToArray();
        tool.Create(dir.Path, "release.par2", ReleaseFiles.Select(f => f.Name));

        await using var stream = File.OpenRead(Path.Combine(dir.Path, "release.par2"));
        var result = await Par2Reader.ReadAsync(stream, TestContext.Current.CancellationToken);

        Assert.Equal(ReleaseFiles.Length, result.Files.Count);
        for (var i = 0; i < ReleaseFiles.Length; i++)
        {
            var file = Assert.Single(result.Files, f => f.Name == ReleaseFiles[i].Name);
            Assert.Equal(ReleaseFiles[i].Length, file.Length);
            Assert.Equal(Par2Hashes.First16KMd5(contents[i], contents[i].Length), file.First16KMd5);
            Assert.Equal(Hash16.Md5Of(contents[i]), file.FileMd5);
        }

        var main = Assert.Single(result.MainPackets);
        Assert.Equal(ReleaseFiles.Length, main.RecoveryFileIds.Count);
        Assert.All(result.Files, f => Assert.Contains(f.FileId, main.RecoveryFileIds));
        Assert.Equal(0, result.CorruptPackets);
        Assert.False(result.Truncated);
        Assert.StartsWith("Created by", result.Creator);
    }

    [Fact]
    public async Task Recovery_volume_is_read_forward_only_and_slices_are_skipped()
    {
        using var dir = new TempDirectory();
        foreach (var (f, i) in ReleaseFiles.Select((f, i) => (f, i)))
        {
            dir.WriteRandomFile(f.Name, f.Length, i);
        }

        tool.Create(dir.Path, "release.par2", ReleaseFiles.Select(f => f.Name), redundancyPercent: 20);
        var volume = Directory.GetFiles(dir.Path, "release.vol*.par2").Single();
        var bytes = await File.ReadAllBytesAsync(volume, TestContext.Current.CancellationToken);

        var result = await Par2Reader.ReadAsync(new ForwardOnlyStream(bytes, 65_000), TestContext.Current.CancellationToken);
        var index = Par2Reader.Read(await File.ReadAllBytesAsync(
            Path.Combine(dir.Path, "release.par2"), TestContext.Current.CancellationToken));

        Assert.True(result.SkippedPackets > 0);
        Assert.Equal(index.Files.OrderBy(f => f.Name), result.Files.OrderBy(f => f.Name));
    }

    [Fact]
    public async Task Obfuscated_release_is_resolved_to_the_par2_names()
    {
        using var dir = new TempDirectory();
        var contents = ReleaseFiles.Select((f, i) => dir.WriteRandomFile(f.Name, f.Length, 100 + i)).ToArray();
        tool.Create(dir.Path, "release.par2", ReleaseFiles.Select(f => f.Name));
        var par2 = await File.ReadAllBytesAsync(Path.Combine(dir.Path, "release.par2"), TestContext.Current.CancellationToken);

        // As posted: random names everywhere; ingestion saw only each file's first 16 KiB and its size.
        var posted = contents.Select((c, i) => new ReleaseFileInput(
            "[" + (i + 1) + "/5] - \"" + Guid.NewGuid().ToString("N") + "\" yEnc (1/9)",
            null,
            Guid.NewGuid().ToString("N"),
            c.Length,
            Par2Hashes.First16KMd5(c.AsSpan(0, Math.Min(c.Length, 16_384)), c.Length),
            ReleaseFileClassifier.ClassifyMagic(c))).ToList();
        posted.Reverse();

        var names = new ReleaseNamer().Resolve(posted, Par2Reader.Read(par2).Files, "Show.S01E01");

        Assert.Equal(ReleaseFiles.Select(f => f.Name).Reverse(), names.Select(n => n.Name));
        Assert.All(names, n => Assert.Equal(ReleaseNameSource.Par2, n.Source));
    }
}
