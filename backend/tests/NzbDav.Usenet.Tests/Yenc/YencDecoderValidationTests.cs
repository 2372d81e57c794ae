using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>Structural errors from Decode, and size/CRC errors from EnsureValid.</summary>
public sealed class YencDecoderValidationTests
{
    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Missing_yend_fails_validation(string kernel)
    {
        var decoder = Decode(kernel, YencWire.Lines("=ybegin line=128 size=3 name=x", "abc"));
        var error = Assert.Throws<YencException>(() => decoder.EnsureValid());
        Assert.Contains("=yend", error.Message, StringComparison.Ordinal);
        Assert.Null(decoder.Trailer);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Crc_mismatch_fails_validation(string kernel)
    {
        var data = YencWire.RandomData(10_000, 3);
        var wire = YencWire.Article(data, YencWire.MultiPart(data.Length));
        // Change one plain data byte (not an escape, nor escaped) so only the content changes.
        var at = wire.Length / 2;
        while (wire[at] is (byte)'=' or (byte)'\r' or (byte)'\n' || wire[at - 1] == (byte)'=')
        {
            at++;
        }
        wire[at] = wire[at] == (byte)'A' ? (byte)'B' : (byte)'A';
        var decoder = Decode(kernel, wire);
        var error = Assert.Throws<YencCrcMismatchException>(() => decoder.EnsureValid());
        Assert.Equal(System.IO.Hashing.Crc32.HashToUInt32(data), error.Expected);
        Assert.Equal(decoder.Crc32, error.Actual);
        Assert.NotEqual(error.Expected, error.Actual);
    }

    [Theory]
    [InlineData("=yend size=4")]
    [InlineData("=yend size=2")]
    public void Trailer_size_mismatch_fails_validation(string trailer)
    {
        var decoder = Decode("Scalar", YencWire.Lines("=ybegin line=128 size=3 name=x", "abc", trailer));
        var error = Assert.Throws<YencException>(() => decoder.EnsureValid());
        Assert.IsNotType<YencCrcMismatchException>(error);
        Assert.Contains("size=", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Header_part_size_mismatch_fails_validation()
    {
        var decoder = Decode("Scalar", YencWire.Lines(
            "=ybegin part=1 line=128 size=100 name=x", "=ypart begin=1 end=4", "abc", "=yend size=3 part=1"));
        var error = Assert.Throws<YencException>(() => decoder.EnsureValid());
        Assert.Contains("part of 4 bytes", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Part_number_mismatch_fails_validation()
    {
        var decoder = Decode("Scalar", YencWire.Lines(
            "=ybegin part=1 line=128 size=100 name=x", "=ypart begin=1 end=3", "abc", "=yend size=3 part=2"));
        Assert.Throws<YencException>(() => decoder.EnsureValid());
    }

    [Fact]
    public void A_valid_article_with_uppercase_crc_passes()
    {
        var crc = System.IO.Hashing.Crc32.HashToUInt32(YencWire.Minus42("abc"));
        var decoder = Decode("Scalar", YencWire.Lines("=ybegin line=128 size=3 name=x", "abc", $"=yend size=3 crc32={crc:X8}"));
        Assert.Equal(crc, decoder.EnsureValid().PartCrc32);
    }

    [Theory]
    [InlineData("=ybegin line=128 size=abc name=x")]
    [InlineData("=ybegin line=128 name=x")]
    [InlineData("=ybegin line=128 size=3")]
    [InlineData("=ybegin part=0 line=128 size=3 name=x")]
    public void Malformed_ybegin_throws_from_decode(string begin)
    {
        var decoder = YencWire.Decoder("Scalar");
        Assert.Throws<YencException>(() => YencDriver.Whole(decoder, YencWire.Lines(begin, "abc", "=yend size=3")));
        // A faulted decoder refuses to go on until it is reset.
        Assert.Throws<InvalidOperationException>(() => decoder.Decode("abc"u8, new byte[8], out _, out _));
        decoder.Reset();
        Assert.Equal(YencWire.Minus42("abc"), YencDriver.Whole(decoder, YencWire.Lines("=ybegin line=128 size=3 name=x", "abc", "=yend size=3")).Data);
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("")]
    [InlineData("=yend size=3")]
    [InlineData("=ypart begin=5 end=3")]
    [InlineData("=ypart begin=1 end=101")]
    public void Multipart_header_needs_a_valid_ypart_line_next(string second)
    {
        var wire = YencWire.Lines("=ybegin part=1 line=128 size=100 name=x", second, "abc", "=yend size=3");
        Assert.Throws<YencException>(() => YencDriver.Whole(YencWire.Decoder("Scalar"), wire));
    }

    [Fact]
    public void Article_ending_before_ypart_fails_validation()
    {
        var decoder = Decode("Scalar", YencWire.Lines("=ybegin part=1 line=128 size=100 name=x"));
        Assert.Null(decoder.Header);
        Assert.Contains("=ypart", Assert.Throws<YencException>(() => decoder.EnsureValid()).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Unexpected_keyword_line_among_data_throws()
    {
        var wire = YencWire.Lines("=ybegin line=128 size=3 name=x", "abc", "=ybegin line=128 size=3 name=y", "=yend size=3");
        Assert.Throws<YencException>(() => YencDriver.Whole(YencWire.Decoder("Scalar"), wire));
    }

    [Fact]
    public void Overlong_keyword_line_throws()
    {
        var wire = YencWire.Lines("=ybegin line=128 size=3 name=" + new string('n', 70_000), "abc", "=yend size=3");
        Assert.Throws<YencException>(() => YencDriver.Chunked(YencWire.Decoder("Scalar"), wire, () => 1000, () => 10));
    }

    [Fact]
    public void Article_without_yenc_completes_and_fails_validation()
    {
        var decoder = Decode("Scalar", YencWire.Lines("just text", "..more"));
        Assert.Null(decoder.Header);
        Assert.Contains("no =ybegin", Assert.Throws<YencException>(() => decoder.EnsureValid()).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void EnsureValid_before_completion_is_a_usage_error()
    {
        var decoder = YencWire.Decoder("Scalar");
        decoder.Decode("=ybegin line=128 size=3 name=x\r\nab"u8, new byte[8], out _, out _);
        Assert.Throws<InvalidOperationException>(() => decoder.EnsureValid());
    }

    [Fact]
    public void Reset_forgets_the_previous_article()
    {
        var decoder = Decode("Scalar", YencWire.Lines("=ybegin line=128 size=3 name=x", "ab=", "=yend size=3"));
        decoder.Reset();
        Assert.Null(decoder.Header);
        Assert.Null(decoder.Trailer);
        Assert.Equal(0, decoder.DecodedLength);
        Assert.Equal(0u, decoder.Crc32);
        var result = YencDriver.Whole(decoder, YencWire.Lines("=ybegin line=128 size=2 name=y", "cd", "=yend size=2"));
        Assert.Equal(YencWire.Minus42("cd"), result.Data);
        Assert.Equal("y", decoder.Header!.FileName);
    }

    private static YencDecoder Decode(string kernel, byte[] wire)
    {
        var decoder = YencWire.Decoder(kernel);
        Assert.True(YencDriver.Whole(decoder, wire).Completed);
        return decoder;
    }
}
