using System.Text;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

public sealed class YencKeywordLineTests
{
    [Fact]
    public void Single_part_begin()
    {
        var header = YencKeywordLine.ParseBegin("=ybegin line=128 size=123456 name=movie.mkv\r\n"u8, default);
        Assert.Equal(new YencHeader("movie.mkv", 123456, 128, null, null, 0, 123456), header);
    }

    [Fact]
    public void Multipart_begin_and_part()
    {
        var header = YencKeywordLine.ParseBegin(
            "=ybegin part=41 total=100 line=128 size=75000000 name=a.rar"u8, "=ypart begin=30000001 end=30750000\r\n"u8);
        Assert.Equal(new YencHeader("a.rar", 75_000_000, 128, 41, 100, 30_000_000, 750_000), header);
        Assert.Equal(30_750_000, header.PartEnd);
    }

    [Theory]
    [InlineData("=ybegin line=128 size=5 name=my file  name.bin", "my file  name.bin")]
    [InlineData("=ybegin line=128 size=5 name=a size=9 part=3.bin   ", "a size=9 part=3.bin")]
    [InlineData("=ybegin LINE=128 Size=5 NAME=Upper.bin \t\r\n", "Upper.bin")]
    [InlineData("=ybegin size=5 name=", "")]
    [InlineData("=ybegin\tsize=5\tname=tabs.bin", "tabs.bin")]
    public void Begin_names_and_leniency(string line, string name)
    {
        var header = YencKeywordLine.ParseBegin(Encoding.UTF8.GetBytes(line), default);
        Assert.Equal(name, header.FileName);
        Assert.Equal(5, header.FileSize);
        Assert.Null(header.Part);
    }

    [Fact]
    public void Names_are_utf8_or_latin1()
    {
        Assert.Equal("é.bin", YencKeywordLine.ParseBegin([.. "=ybegin size=1 name="u8, 0xC3, 0xA9, .. ".bin"u8], default).FileName);
        Assert.Equal("é.bin", YencKeywordLine.ParseBegin([.. "=ybegin size=1 name="u8, 0xE9, .. ".bin"u8], default).FileName);
    }

    [Theory]
    [InlineData("=ybegin line=128 name=x")]
    [InlineData("=ybegin line=128 size= name=x")]
    [InlineData("=ybegin line=128 size=-1 name=x")]
    [InlineData("=ybegin line=128 size=12x name=x")]
    [InlineData("=ybegin line=128 size=99999999999999999999 name=x")]
    [InlineData("=ybegin line=99999999999 size=1 name=x")]
    [InlineData("=ybegin line=128 size=3")]
    [InlineData("=ybegin part=1 line=128 size=3 name=x")]
    [InlineData("=ybegin total=0 line=128 size=3 name=x")]
    [InlineData("=ybeginx line=128 size=3 name=x")]
    [InlineData("=yend size=3")]
    [InlineData("ybegin size=3 name=x")]
    public void Malformed_begin_throws(string line)
        => Assert.Throws<YencException>(() => YencKeywordLine.ParseBegin(Encoding.ASCII.GetBytes(line), default));

    [Theory]
    [InlineData("=ypart begin=0 end=3")]
    [InlineData("=ypart begin=4 end=3")]
    [InlineData("=ypart begin=1 end=11")]
    [InlineData("=ypart begin=1")]
    [InlineData("=ypart end=3")]
    [InlineData("=yend size=3")]
    public void Malformed_part_throws(string ypart)
        => Assert.Throws<YencException>(() => YencKeywordLine.ParseBegin(
            "=ybegin part=1 line=128 size=10 name=x"u8, Encoding.ASCII.GetBytes(ypart)));

    [Fact]
    public void Multipart_end()
    {
        var trailer = YencKeywordLine.ParseEnd("=yend size=750000 part=41 pcrc32=0a1b2c3d crc32=DEADBEEF  \r\n"u8);
        Assert.Equal(new YencTrailer(750_000, 41, 0x0a1b2c3d, 0xdeadbeef), trailer);
    }

    [Theory]
    [InlineData("=yend size=3 crc32=1a", 0x1au)]
    [InlineData("=yend size=3 crc32=0000001A", 0x1au)]
    [InlineData("=yend size=3 CRC32=0x1a", 0x1au)]
    [InlineData("=yend size=3 crc32=ffffffff", 0xffffffffu)]
    public void Single_part_crc_is_the_part_crc(string line, uint crc)
    {
        var trailer = YencKeywordLine.ParseEnd(Encoding.ASCII.GetBytes(line));
        Assert.Equal(crc, trailer.PartCrc32);
        Assert.Equal(crc, trailer.FileCrc32);
        Assert.Null(trailer.Part);
    }

    [Fact]
    public void End_without_crc_has_none()
    {
        var trailer = YencKeywordLine.ParseEnd("=yend size=3 part=2 crc32=12345678"u8);
        Assert.Null(trailer.PartCrc32);
        Assert.Equal(0x12345678u, trailer.FileCrc32);
        Assert.Equal(new YencTrailer(0, null, null, null), YencKeywordLine.ParseEnd("=yend size=0"u8));
    }

    [Theory]
    [InlineData("=yend part=1 pcrc32=00000000")]
    [InlineData("=yend size=3 pcrc32=123456789")]
    [InlineData("=yend size=3 pcrc32=xyz")]
    [InlineData("=yend size=3 pcrc32=")]
    [InlineData("=yend size=3 part=0")]
    [InlineData("=ybegin size=3 name=x")]
    public void Malformed_end_throws(string line)
        => Assert.Throws<YencException>(() => YencKeywordLine.ParseEnd(Encoding.ASCII.GetBytes(line)));
}
