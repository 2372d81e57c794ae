using NzbDav.Archives.Release;

namespace NzbDav.Archives.Tests.Release;

public sealed class ReleaseBlocklistTests
{
    private readonly ReleaseBlocklist _defaults = new();

    [Theory]
    [InlineData("movie.par2", true)]
    [InlineData("movie.vol00+01.PAR2", true)]
    [InlineData("movie.nfo", true)]
    [InlineData("movie.sfv", true)]
    [InlineData("movie.srr", true)]
    [InlineData("Visit.URL", true)]
    [InlineData("readme.txt", true)]
    [InlineData("Codec.Installer.exe", true)]
    [InlineData("movie-sample.mkv", true)]
    [InlineData("Movie.2020.1080p.SAMPLE.mkv", true)]
    [InlineData("sample.mkv", true)]
    [InlineData("Sample/movie.mkv", true)]
    [InlineData("Release\\Sample\\movie.mkv", true)]
    [InlineData("movie.mkv", false)]
    [InlineData("movie.srt", false)]
    [InlineData("movie.sub", false)]
    [InlineData("movie.idx", false)]
    [InlineData("Subs/English.srt", false)]
    [InlineData("Sampled.Lives.2020.mkv", false)]
    [InlineData("Samples.Of.Life/movie.mkv", false)]
    [InlineData("movie.part01.rar", false)]
    public void Defaults(string path, bool blocked) => Assert.Equal(blocked, _defaults.IsBlocked(path));

    [Fact]
    public void Configured_patterns_replace_the_defaults_and_support_anchors_and_double_star()
    {
        var blocklist = new ReleaseBlocklist(new ReleaseBlocklistOptions { Patterns = ["/extras/**", "*.j?g"] });

        Assert.True(blocklist.IsBlocked("Extras/deleted/scene.mkv"));
        Assert.False(blocklist.IsBlocked("movie/extras/scene.mkv"));
        Assert.True(blocklist.IsBlocked("covers/front.JPG"));
        Assert.False(blocklist.IsBlocked("movie.nfo"));
        Assert.Throws<ArgumentException>(() => new ReleaseBlocklist(new ReleaseBlocklistOptions { Patterns = [" "] }));
    }
}
