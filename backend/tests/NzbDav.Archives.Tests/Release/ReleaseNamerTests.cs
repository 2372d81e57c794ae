using NzbDav.Archives.Release;
using static NzbDav.Archives.Tests.Release.Par2TestWriter;

namespace NzbDav.Archives.Tests.Release;

public sealed class ReleaseNamerTests
{
    private static readonly Hash16 Set = Id(77);
    private readonly ReleaseNamer _namer = new();

    private static Par2FileDescription Description(string name, byte[] content, int id) =>
        Par2Reader.Read(FileDescription(Set, Id(id), content, name)).Files[0];

    private static ReleaseFileInput Posted(string? yenc, byte[] content, string? subject = null, ReleaseFileKind kind = default) =>
        new(subject, null, yenc, content.Length, Par2Hashes.First16KMd5(content, content.Length), kind);

    private static byte[] Content(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    [Fact]
    public void Par2_beats_subject_and_yenc_and_size_must_agree()
    {
        var video = Content(20_000, 1);
        var other = Content(20_000, 2);
        var par2 = new[] { Description("Movie.2020.mkv", video, 1) };
        var sameHead = video.Concat(new byte[10]).ToArray();

        var names = _namer.Resolve(
            [Posted("x7Kq9mW2pL5vR8tZ.bin", video, "\"Movie.Subject.mkv\" yEnc (1/30)"),
             Posted("Other.File.2020.mkv", other, "[2/3] - \"Other.File.From.Subject.mkv\""),
             Posted("Longer.Copy.Name.mkv", sameHead)],
            par2);

        Assert.Equal(("Movie.2020.mkv", ReleaseNameSource.Par2), (names[0].Name, names[0].Source));
        Assert.Equal(("Other.File.From.Subject.mkv", ReleaseNameSource.Subject), (names[1].Name, names[1].Source));
        Assert.Equal(("Longer.Copy.Name.mkv", ReleaseNameSource.Yenc), (names[2].Name, names[2].Source));
        Assert.Null(names[2].Par2Match);
    }

    [Fact]
    public void Obfuscated_candidates_give_way_to_clear_ones_in_lower_priority()
    {
        var data = Content(100, 3);
        var names = _namer.Resolve(
            [new ReleaseFileInput("\"a8f3c2e1b9d7f6e5a4c3b2d1e0f9a8b7\" yEnc", null, "Real.Name.S01E01.mkv", 100, Hash16.Md5Of(data))],
            [Description("c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6.mkv", data, 1)]);

        Assert.Equal(("Real.Name.S01E01.mkv", ReleaseNameSource.Yenc), (names[0].Name, names[0].Source));
        Assert.NotNull(names[0].Par2Match);
    }

    [Fact]
    public void Obfuscated_video_takes_the_job_name_and_its_magic_extension()
    {
        var names = _namer.Resolve(
            [new ReleaseFileInput(null, null, "Xk9mQ2vL8pR4tW7nY3zA", 5_000_000, null, ReleaseFileKind.Matroska),
             new ReleaseFileInput(null, null, "Qp4nB7xZ2kM9wR3tV8cL", 5_000, null, ReleaseFileKind.Rar5),
             new ReleaseFileInput(null, null, null, 10, null, ReleaseFileKind.Unknown)],
            [],
            jobName: "Great.Movie.2021.1080p.WEB-GRP");

        Assert.Equal(("Great.Movie.2021.1080p.WEB-GRP.mkv", ReleaseNameSource.JobName), (names[0].Name, names[0].Source));
        Assert.Equal(("Qp4nB7xZ2kM9wR3tV8cL.rar", ReleaseNameSource.Yenc), (names[1].Name, names[1].Source));
        Assert.Equal(("file-003", ReleaseNameSource.Fallback), (names[2].Name, names[2].Source));
    }

    [Fact]
    public void Collisions_are_deduplicated_deterministically_with_better_sources_first()
    {
        var a = Content(50, 4);
        var names = _namer.Resolve(
            [new ReleaseFileInput(null, null, "movie.MKV", 50, null),
             new ReleaseFileInput(null, null, "x", 50, Hash16.Md5Of(a)),
             new ReleaseFileInput(null, null, "movie.mkv", 50, null)],
            [Description("Movie.mkv", a, 1)]);

        Assert.Equal(["movie (2).MKV", "Movie.mkv", "movie (3).mkv"], names.Select(n => n.Name));
    }

    [Fact]
    public void Identical_heads_get_distinct_par2_names_by_length_then_order()
    {
        var head = Content(16_384, 5);
        byte[] one = [.. head, 1], two = [.. head, 2, 2];
        var names = _namer.Resolve(
            [Posted("a", two), Posted("b", one)],
            [Description("One.mkv", one, 1), Description("Two.mkv", two, 2), Description("One.mkv", one, 1)]);

        Assert.Equal(["Two.mkv", "One.mkv"], names.Select(n => n.Name));
    }

    [Theory]
    [InlineData("../../etc/passwd", "etc/passwd")]
    [InlineData("/abs/Movie.mkv", "abs/Movie.mkv")]
    [InlineData("Subs\\English.srt", "Subs/English.srt")]
    [InlineData("bad\u0001name.mkv", "badname.mkv")]
    [InlineData(" .. / . ", null)]
    public void Names_are_sanitised(string raw, string? expected) =>
        Assert.Equal(expected, ReleaseNameSanitizer.Sanitize(raw));
}
