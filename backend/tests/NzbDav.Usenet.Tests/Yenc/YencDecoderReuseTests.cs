using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>A pooled decoder reused across articles keeps nothing of the last article but caches.</summary>
public sealed class YencDecoderReuseTests
{
    [Fact]
    public void Same_article_again_reuses_header_and_trailer_objects()
    {
        var data = YencWire.RandomData(1000, 9);
        var wire = YencWire.Article(data, YencWire.MultiPart(data.Length));
        var decoder = new YencDecoder();
        YencDriver.Whole(decoder, wire);
        var header = decoder.Header;
        var trailer = decoder.EnsureValid();

        decoder.Reset();
        Assert.Equal(data, YencDriver.Whole(decoder, wire).Data);
        Assert.Same(header, decoder.Header);
        Assert.Same(trailer, decoder.EnsureValid());
    }

    [Fact]
    public void Next_part_of_the_same_file_gets_its_own_header_and_the_same_name()
    {
        var first = YencWire.RandomData(1000, 1);
        var second = YencWire.RandomData(800, 2);
        var decoder = new YencDecoder();
        YencDriver.Whole(decoder, YencWire.Article(first, YencWire.MultiPart(first.Length, begin: 0, part: 1, name: "movie.mkv")));
        var header1 = decoder.Header!;
        var trailer1 = decoder.EnsureValid();

        decoder.Reset();
        YencDriver.Whole(decoder, YencWire.Article(second, YencWire.MultiPart(second.Length, begin: 1000, part: 2, name: "movie.mkv")));
        var header2 = decoder.Header!;
        Assert.NotSame(header1, header2);
        Assert.Same(header1.FileName, header2.FileName);
        Assert.Equal((2, 1000L, 800L), (header2.Part!.Value, header2.PartBegin, header2.PartSize));
        Assert.NotEqual(trailer1, decoder.EnsureValid());

        decoder.Reset();
        YencDriver.Whole(decoder, YencWire.Article(second, YencWire.MultiPart(second.Length, begin: 1000, part: 2, name: "other.mkv")));
        Assert.Equal("other.mkv", decoder.Header!.FileName);
        Assert.Equal(1000, decoder.Header.PartBegin);
    }
}
