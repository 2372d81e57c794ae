using NzbDav.Usenet.Nzb;

namespace NzbDav.Usenet.Tests.Nzb;

public sealed class NzbSubjectTests
{
    [Theory]
    // Quoted names, the common case.
    [InlineData("[1/8] - \"Some.Show.S01E01.1080p.WEB.H264-GRP.mkv\" yEnc (1/2045)", "Some.Show.S01E01.1080p.WEB.H264-GRP.mkv")]
    [InlineData("\"file.rar\" yEnc (1/50)", "file.rar")]
    [InlineData("Some.Show.S01E01 [01/30] - \"Some.Show.S01E01.part01.rar\" yEnc (1/100)", "Some.Show.S01E01.part01.rar")]
    [InlineData("[34/44] - \"movie.vol063+64.par2\" yEnc (1/16)", "movie.vol063+64.par2")]
    [InlineData("File 5 of 12: \"archive.7z.005\" yEnc (1/300)", "archive.7z.005")]
    [InlineData("[12345]-[FULL]-[#a.b.teevee@EFNet]-[ Show.S02E03.720p.HDTV.x264-GRP ]-[03/34] - \"show.s02e03.720p-grp.r01\" yEnc (1/50)", "show.s02e03.720p-grp.r01")]
    [InlineData("Movie (2020) [1/40] - \"Movie (2020).mkv\" yEnc (1/5000)", "Movie (2020).mkv")]
    [InlineData("[1/3] - \"Café – Ünïcødé 日本語 🎬.mkv\" yEnc (1/10)", "Café – Ünïcødé 日本語 🎬.mkv")]
    [InlineData("  \" spaced.nfo \"  yEnc (1/1)", "spaced.nfo")]
    [InlineData("Re: \"quoted words\" and then \"real.name.mkv\" yEnc (1/2)", "real.name.mkv")]
    [InlineData("\"name.r00\" (2/80)", "name.r00")]
    // Obfuscated posts: a quoted token before yEnc even without an extension.
    [InlineData("[3/9] - \"a8f7d6e5c4b3a291f0e9d8c7\" yEnc (1/120)", "a8f7d6e5c4b3a291f0e9d8c7")]
    [InlineData("\"b1946ac92492d2347c6235b4d2611184.mkv\" yEnc (1/50)", "b1946ac92492d2347c6235b4d2611184.mkv")]
    // Unquoted forms.
    [InlineData("[01/10] - name.part01.rar yEnc (1/50)", "name.part01.rar")]
    [InlineData("name.mkv (1/5)", "name.mkv")]
    [InlineData("house.of.the.dragon.s01e01.720p.mkv yEnc (01/99) 734003200", "house.of.the.dragon.s01e01.720p.mkv")]
    [InlineData("[Some.Group] Movie.2020.1080p.mkv yEnc [1/5]", "Movie.2020.1080p.mkv")]
    [InlineData("Some Movie 2020.mkv(1/5)", "Some Movie 2020.mkv")]
    // Bracketed names with an empty quote.
    [InlineData("Re: [PRiVATE]-[WtFnZb]-[Show.S01E01.mkv]-[1/5] - \"\" yEnc 1234 (1/50)", "Show.S01E01.mkv")]
    [InlineData("[PRiVATE]-[WtFnZb]-[3/20] - [Show.S01E02.nfo] yEnc (1/1)", "Show.S01E02.nfo")]
    // Nothing that looks like a file: the trimmed subject.
    [InlineData("  Just a subject without any file  ", "Just a subject without any file")]
    [InlineData("\"Hello World\" posted by someone", "\"Hello World\" posted by someone")]
    [InlineData("Version 1.0 released yEnc (1/1)", "Version 1.0 released yEnc (1/1)")]
    [InlineData("   ", "")]
    [InlineData("", "")]
    public void Extracts_the_file_name(string subject, string expected) =>
        Assert.Equal(expected, NzbSubject.ExtractFileName(subject));

    [Fact]
    public void Returns_the_subject_itself_when_nothing_changes()
    {
        const string subject = "plain.name.mkv";
        Assert.Same(subject, NzbSubject.ExtractFileName(subject));
    }
}
