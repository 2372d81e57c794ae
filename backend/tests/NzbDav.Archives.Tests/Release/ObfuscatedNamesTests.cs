using NzbDav.Archives.Release;

namespace NzbDav.Archives.Tests.Release;

public sealed class ObfuscatedNamesTests
{
    [Theory]
    [InlineData("b8f2c4e1a9d7f3e6b2c8a1d4e7f9c3b5", true)]
    [InlineData("b8f2c4e1a9d7f3e6b2c8a1d4e7f9c3b5.mkv", true)]
    [InlineData("Xk9mQ2vL8pR4tW7nY3zA", true)]
    [InlineData("Xk9mQ2vL8pR4tW7nY3zA.part01.rar", true)]
    [InlineData("5f3a7c9e-2b4d-4e6f-8a1c-3d5e7f9b1a2c", true)]
    [InlineData("5f3a7c9e2b4d4e6f8a1c3d5e7f9b1a2c.7z.001", true)]
    [InlineData("1b2c3d4e5f6a7b8c.par2", true)]
    [InlineData("kT3p9sVb2Lq8.vol03+04.par2", true)]
    [InlineData("Zx81Ab3Cd5Ef7Gh9.r00", true)]
    [InlineData("qWeRtYuIoPaSdF", true)]
    [InlineData("xkcdqwrtzplmnbvfgh.mkv", true)]
    [InlineData("abc123def456ghi789", true)]
    [InlineData("a1B2c3D4e5F6g7H8.mp4", true)]
    [InlineData("Xk9mQ2vL8p_Rt5", true)]
    [InlineData(".mkv", true)]
    [InlineData("The.Show.S01E02.1080p.WEB.h264-GROUP.mkv", false)]
    [InlineData("Movie Title (2019) 1080p.mkv", false)]
    [InlineData("movie.part01.rar", false)]
    [InlineData("movie.r00", false)]
    [InlineData("Some.Movie.2020.1080p.BluRay.x264-GRP.part001.rar", false)]
    [InlineData("group-movie-sample.mkv", false)]
    [InlineData("English.srt", false)]
    [InlineData("VTS_01_1.VOB", false)]
    [InlineData("Artist - Song.flac", false)]
    [InlineData("ubuntu-24.04-desktop-amd64.iso", false)]
    [InlineData("Documentary", false)]
    [InlineData("TheBigBangTheory.mkv", false)]
    [InlineData("abc123.mkv", false)]
    [InlineData("01.mkv", false)]
    [InlineData("Subs/English.srt", false)]
    [InlineData("Show.S01E01.mkv.001", false)]
    [InlineData("README.txt", false)]
    public void Classifies_real_world_shaped_names(string name, bool obfuscated) =>
        Assert.Equal(obfuscated, ObfuscatedNames.IsLikelyObfuscated(name));
}
