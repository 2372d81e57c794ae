using NzbDav.Usenet.Nzb;

namespace NzbDav.Usenet.Tests.Nzb;

public sealed class NzbFileTests
{
    [Fact]
    public void Public_constructor_normalises_like_the_parser()
    {
        NzbSegment[] segments = [new(4, 40, "d@x"), new(1, 10, "a@x"), new(4, 41, "d2@x"), new(2, 20, "b@x")];
        var groups = new List<string> { "alt.binaries.test" };

        var file = new NzbFile("[1/1] - \"x.mkv\" yEnc (1/4)", "me", null, groups, segments);
        groups.Add("mutated");

        Assert.Equal([new NzbSegment(1, 10, "a@x"), new NzbSegment(2, 20, "b@x"), new NzbSegment(4, 40, "d@x")], file.Segments.ToArray());
        Assert.Equal([3], file.MissingSegmentNumbers);
        Assert.Equal(70, file.EncodedBytes);
        Assert.Equal("x.mkv", file.FileName);
        Assert.Equal(["alt.binaries.test"], file.Groups);
    }

    [Theory]
    [InlineData(0, 1, "a@x")]
    [InlineData(1, -1, "a@x")]
    [InlineData(1, 1, "")]
    [InlineData(1, 1, "<a@x>")]
    [InlineData(1, 1, "a@x\r\nQUIT")]
    public void Public_constructor_rejects_invalid_segments(int number, long bytes, string messageId) =>
        Assert.Throws<ArgumentException>(() => new NzbFile("s", "p", null, [], [new NzbSegment(number, bytes, messageId)]));

    [Fact]
    public void Public_constructor_takes_a_248_character_message_id_and_refuses_249()
    {
        var longest = new string('a', 246) + "@x";

        Assert.Equal(longest, new NzbFile("s", "p", null, [], [new NzbSegment(1, 1, longest)]).Segments.Span[0].MessageId);
        Assert.Throws<ArgumentException>(() => new NzbFile("s", "p", null, [], [new NzbSegment(1, 1, "a" + longest)]));
    }

    [Fact]
    public void Public_constructor_rejects_no_segments() =>
        Assert.Throws<ArgumentException>(() => new NzbFile("s", "p", null, [], []));

    [Fact]
    public void Huge_gap_is_described_without_materialising_it()
    {
        var file = new NzbFile("s", "p", null, [], [new NzbSegment(int.MaxValue, 1, "z@x"), new NzbSegment(1, 1, "a@x"), new NzbSegment(5, 1, "e@x")]);

        var missing = file.MissingSegmentNumbers;
        Assert.Equal(int.MaxValue - 3, missing.Count);
        Assert.Equal(2, missing[0]);
        Assert.Equal(4, missing[2]);
        Assert.Equal(6, missing[3]);
        Assert.Equal(int.MaxValue - 1, missing[^1]);
        Assert.Equal([2, 3, 4, 6, 7], missing.Take(5));
        Assert.Throws<ArgumentOutOfRangeException>(() => missing[missing.Count]);
        Assert.Throws<ArgumentOutOfRangeException>(() => missing[-1]);
    }

    [Fact]
    public void Missing_numbers_indexer_agrees_with_enumeration()
    {
        int[] present = [3, 4, 9, 10, 11, 15, 20];
        var file = new NzbFile("s", "p", null, [], present.Select(n => new NzbSegment(n, 0, $"{n}@x")));

        var expected = Enumerable.Range(1, 20).Except(present).ToArray();
        Assert.Equal(expected, file.MissingSegmentNumbers);
        Assert.Equal(expected, Enumerable.Range(0, file.MissingSegmentNumbers.Count).Select(i => file.MissingSegmentNumbers[i]));
    }

    [Fact]
    public void Metadata_matches_types_case_insensitively_and_keeps_everything()
    {
        var meta = new NzbMetadata([new("Name", "first"), new("name", "second"), new("CATEGORY", "tv"), new("password", "a"),
            new("Password", "b"), new("password", "a"), new("password", ""), new("x-custom", "v")]);

        Assert.Equal("first", meta.Name);
        Assert.Equal("tv", meta.Category);
        Assert.Equal(["a", "b"], meta.Passwords);
        Assert.Equal(8, meta.All.Count);
    }
}
