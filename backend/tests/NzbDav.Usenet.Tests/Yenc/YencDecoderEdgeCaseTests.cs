using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>Wire-format corners: splits, dot-stuffing, the terminator, sloppy posters.</summary>
public sealed class YencDecoderEdgeCaseTests
{
    private const string Begin3 = "=ybegin line=128 size=3 name=x";

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Escape_as_the_last_byte_of_a_chunk(string kernel)
    {
        var data = YencWire.NastyData(3000, 5);
        var wire = YencWire.Article(data, YencWire.SinglePart(data.Length), lineLength: 64);
        var splits = 0;
        for (var i = 40; i < wire.Length - 20; i++)
        {
            if (wire[i] == (byte)'=' && wire[i + 1] != (byte)'y')
            {
                var result = YencDriver.Chunked(YencWire.Decoder(kernel), wire, YencDriver.SplitAt(i + 1), () => int.MaxValue);
                Assert.Equal(data, result.Data);
                splits++;
            }
        }
        Assert.True(splits > 100);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void CR_and_LF_split_across_chunks(string kernel)
    {
        var data = YencWire.RandomData(2000, 6);
        var wire = YencWire.Article(data, YencWire.MultiPart(data.Length), lineLength: 50);
        for (var i = 0; i < wire.Length - 1; i++)
        {
            if (wire[i] == (byte)'\r')
            {
                var result = YencDriver.Chunked(YencWire.Decoder(kernel), wire, YencDriver.SplitAt(i + 1), () => int.MaxValue);
                Assert.Equal(data, result.Data);
                Assert.Equal(wire.Length, result.Consumed);
            }
        }
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Dot_stuffed_lines_lose_one_dot(string kernel)
    {
        var wire = YencWire.Lines("=ybegin line=128 size=8 name=x", "..x", "..", "...", "abc", "=yend size=8");
        var result = YencDriver.Whole(YencWire.Decoder(kernel), wire);
        Assert.Equal(YencWire.Minus42(".x...abc"), result.Data);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void A_leading_dot_that_was_not_stuffed_is_kept(string kernel)
    {
        var wire = YencWire.Lines(Begin3, ".x", ".\rq", "=yend size=3");
        Assert.Equal(YencWire.Minus42(".x.q"), YencDriver.Whole(YencWire.Decoder(kernel), wire).Data);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Terminator_split_across_chunks(string kernel)
    {
        var wire = YencWire.Lines(Begin3, "abc", "=yend size=3");
        var decoder = YencWire.Decoder(kernel);
        var dst = new byte[16];
        var headerEnd = Begin3.Length + 2;
        Assert.Equal(YencDecodeStatus.HeaderParsed, decoder.Decode(wire, dst, out var consumed, out _));
        Assert.Equal(headerEnd, consumed);
        var body = wire.AsSpan(headerEnd, wire.Length - headerEnd - 2);
        Assert.Equal(YencDecodeStatus.NeedMoreData, decoder.Decode(body, dst, out consumed, out var written));
        Assert.Equal(body.Length, consumed);
        Assert.Equal(3, written);
        Assert.Equal(YencDecodeStatus.NeedMoreData, decoder.Decode("\r"u8, dst, out consumed, out _));
        Assert.Equal(1, consumed);
        Assert.Equal(YencDecodeStatus.Completed, decoder.Decode("\nleft over"u8, dst, out consumed, out written));
        Assert.Equal(1, consumed);
        Assert.Equal(0, written);
        Assert.Equal(3, decoder.EnsureValid().Size);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Two_articles_back_to_back_are_decoded_one_at_a_time(string kernel)
    {
        var first = YencWire.RandomData(5000, 1);
        var second = YencWire.RandomData(7000, 2);
        var wireA = YencWire.Article(first, YencWire.MultiPart(first.Length, part: 1, begin: 0));
        var wireB = YencWire.Article(second, YencWire.MultiPart(second.Length, part: 2, begin: 5000));
        byte[] both = [.. wireA, .. wireB, .. "222 next\r\n"u8];

        var decoder = YencWire.Decoder(kernel);
        var a = YencDriver.Whole(decoder, both);
        Assert.Equal(wireA.Length, a.Consumed);
        Assert.Equal(first, a.Data);
        decoder.EnsureValid();

        decoder.Reset();
        var b = YencDriver.Whole(decoder, both[a.Consumed..]);
        Assert.Equal(wireB.Length, b.Consumed);
        Assert.Equal(second, b.Data);
        Assert.Equal(2, decoder.EnsureValid().Part);
        Assert.Equal(5000, decoder.Header!.PartBegin);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Bare_LF_line_endings_are_accepted(string kernel)
    {
        var crc = System.IO.Hashing.Crc32.HashToUInt32(YencWire.Minus42("abcdef"));
        var wire = YencWire.Ascii($"=ybegin line=128 size=6 name=x\nabc\ndef\n=yend size=6 crc32={crc:x8}\n.\n");
        var decoder = YencWire.Decoder(kernel);
        var result = YencDriver.Whole(decoder, wire);
        Assert.Equal(wire.Length, result.Consumed);
        Assert.Equal(YencWire.Minus42("abcdef"), result.Data);
        decoder.EnsureValid();
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Escapes_of_any_byte_decode(string kernel)
    {
        // TAB, SPACE and '.' escaped as posters do; 'q' and 'A' escaped though they need not be;
        // "==" escapes '='; a '=' right before the line end escapes nothing and is dropped.
        var wire = YencWire.Lines(Begin3, "=I=`=n", "=q=A", "==a=", "=\tb", "=yend size=3");
        byte[] expected = [0xDF, 0xF6, 0x04, 0x07, 0xD7, unchecked((byte)('=' - 106)), (byte)('a' - 42), unchecked((byte)('\t' - 106)), (byte)('b' - 42)];
        Assert.Equal(expected, YencDriver.Whole(YencWire.Decoder(kernel), wire).Data);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Keyword_like_text_in_data_is_data(string kernel)
    {
        // "=y" only starts a keyword line at the start of a line; elsewhere it escapes 'y'.
        var wire = YencWire.Lines(Begin3, "a=yend", "..=ybegin", "=Yx", "=yend size=3");
        byte y = 'y' - 106;
        byte capitalY = unchecked((byte)('Y' - 106));
        byte[] expected =
        [
            .. YencWire.Minus42("a"), y, .. YencWire.Minus42("end"),
            .. YencWire.Minus42("."), y, .. YencWire.Minus42("begin"),
            capitalY, .. YencWire.Minus42("x"),
        ];
        Assert.Equal(expected, YencDriver.Whole(YencWire.Decoder(kernel), wire).Data);
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Text_before_the_header_is_skipped(string kernel)
    {
        var wire = YencWire.Lines("Some poster's text", "..dot line", "", "=yfoo bar", "=ybegin  line=128 size=3 name=my file name.bin  ", "abc", "=yend size=3  ");
        var decoder = YencWire.Decoder(kernel);
        var result = YencDriver.Whole(decoder, wire);
        Assert.Equal(YencWire.Minus42("abc"), result.Data);
        Assert.Equal("my file name.bin", decoder.Header!.FileName);
        Assert.Null(decoder.Header.Part);
        Assert.Equal(0, decoder.Header.PartBegin);
        Assert.Equal(3, decoder.Header.PartSize);
        decoder.EnsureValid();
    }

    [Theory]
    [MemberData(nameof(YencWire.KernelData), MemberType = typeof(YencWire))]
    public void Header_is_reported_before_any_data_is_written(string kernel)
    {
        var wire = YencWire.Lines("=ybegin part=1 line=128 size=3 name=x", "=ypart begin=1 end=3", "abc", "=yend size=3 part=1");
        var decoder = YencWire.Decoder(kernel);
        var dst = new byte[64];
        Assert.Equal(YencDecodeStatus.HeaderParsed, decoder.Decode(wire, dst, out var consumed, out var written));
        Assert.Equal(0, written);
        Assert.Equal(wire.AsSpan().IndexOf("abc"u8), consumed);
        Assert.Equal(1, decoder.Header!.Part);

        Assert.Equal(YencDecodeStatus.DestinationFull, decoder.Decode(wire.AsSpan(consumed), [], out var none, out written));
        Assert.Equal(0, none);
        Assert.Equal(0, written);
        Assert.Equal(YencDecodeStatus.Completed, decoder.Decode(wire.AsSpan(consumed), dst, out var rest, out written));
        Assert.Equal(wire.Length - consumed, rest);
        Assert.Equal(3, written);
        Assert.Equal(YencDecodeStatus.Completed, decoder.Decode("more"u8, dst, out rest, out written));
        Assert.Equal(0, rest);
    }
}
