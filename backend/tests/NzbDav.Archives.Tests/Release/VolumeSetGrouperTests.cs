using NzbDav.Archives.Release;

namespace NzbDav.Archives.Tests.Release;

public sealed class VolumeSetGrouperTests
{
    private static string[] Names(VolumeSet<string> set) => set.Volumes.Select(v => v.Name).ToArray();

    [Fact]
    public void Part_rar_orders_numerically_whatever_the_width()
    {
        var set = Assert.Single(VolumeSetGrouper.Group(["M.part10.rar", "M.part2.rar", "M.part1.rar", "M.part03.rar",
            "M.part4.rar", "M.part5.rar", "M.part6.rar", "M.part7.rar", "M.part8.rar", "M.part9.rar", "M.nfo"]));

        Assert.Equal(VolumeScheme.RarPart, set.Scheme);
        Assert.Equal("M", set.BaseName);
        Assert.Equal(Enumerable.Range(1, 10), set.Volumes.Select(v => v.Number));
        Assert.True(set.IsComplete);
        Assert.Null(set.GapReport);
    }

    [Fact]
    public void Old_style_rar_runs_rar_r00_r99_s00()
    {
        var names = new[] { "Show.s01", "Show.rar", "Show.r99", "Show.s00" }
            .Concat(Enumerable.Range(0, 99).Select(i => "Show.r" + i.ToString("D2")))
            .Reverse();

        var set = Assert.Single(VolumeSetGrouper.Group(names));

        Assert.Equal(VolumeScheme.RarOld, set.Scheme);
        Assert.Equal(["Show.rar", "Show.r00", "Show.r01"], Names(set)[..3]);
        Assert.Equal(["Show.r98", "Show.r99", "Show.s00", "Show.s01"], Names(set)[^4..]);
        Assert.True(set.IsComplete);
    }

    [Fact]
    public void Split_and_7z_volumes_and_gaps_are_named()
    {
        var sets = VolumeSetGrouper.Group(["b.mkv.003", "b.mkv.001", "a.7z.001", "a.7z.004", "a.7z.002", "b.mkv.002"]);

        Assert.Equal(2, sets.Count);
        var sevenZip = sets[0];
        Assert.Equal(VolumeScheme.SevenZip, sevenZip.Scheme);
        Assert.Equal(["a.7z.001", "a.7z.002", "a.7z.004"], Names(sevenZip));
        Assert.Equal(["a.7z.003"], sevenZip.MissingNames);
        Assert.Contains("a.7z.003", sevenZip.GapReport);
        var split = sets[1];
        Assert.Equal(VolumeScheme.Split, split.Scheme);
        Assert.Equal("b.mkv", split.BaseName);
        Assert.Equal(["b.mkv.001", "b.mkv.002", "b.mkv.003"], Names(split));
    }

    [Fact]
    public void Missing_first_volumes_and_old_style_gaps_are_reported()
    {
        var parts = Assert.Single(VolumeSetGrouper.Group(["X.part03.rar", "X.part04.rar"]));
        Assert.Equal(["X.part01.rar", "X.part02.rar"], parts.MissingNames);

        var old = Assert.Single(VolumeSetGrouper.Group(["Y.r00", "Y.r02"]));
        Assert.Equal(["Y.rar", "Y.r01"], old.MissingNames);
        Assert.False(old.IsComplete);
    }

    [Fact]
    public void Reposts_are_duplicates_and_sets_are_case_insensitive()
    {
        var set = Assert.Single(VolumeSetGrouper.Group(
            new[] { ("Z.part1.rar", 1), ("z.PART2.RAR", 2), ("Z.part01.rar", 3) }, x => x.Item1));

        Assert.Equal([1, 2], set.Volumes.Select(v => v.Item.Item2));
        Assert.Equal(3, Assert.Single(set.Duplicates).Item.Item2);
    }

    [Theory]
    [InlineData("movie.mkv")]
    [InlineData("movie.7z")]
    [InlineData("movie.par2")]
    [InlineData("movie.vol00+01.par2")]
    [InlineData("movie.part99999999999.rar")]
    public void Non_volumes_are_left_out(string name) => Assert.Empty(VolumeSetGrouper.Group([name]));
}
