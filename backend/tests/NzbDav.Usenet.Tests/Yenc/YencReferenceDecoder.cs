using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

/// <summary>
/// The test oracle: a deliberately plain, whole-article, line-at-a-time yEnc decoder with the same
/// rules as <see cref="YencDecoder"/> but none of its incremental state or speed tricks.
/// </summary>
internal static class YencReferenceDecoder
{
    /// <summary>Decodes a complete NNTP article body (ending in ".\r\n") to its data bytes.</summary>
    public static byte[] DecodeArticle(ReadOnlySpan<byte> wire) => DecodeArticle(wire, out _, out _, out _);

    /// <summary>Decodes a complete NNTP article body; <paramref name="consumed"/> ends just past the terminator.</summary>
    public static byte[] DecodeArticle(ReadOnlySpan<byte> wire, out YencHeader? header, out YencTrailer? trailer, out int consumed)
    {
        var output = new List<byte>();
        header = null;
        trailer = null;
        var phase = YencDecoderPhase.Preamble;
        var beginLine = ReadOnlySpan<byte>.Empty;
        var pos = 0;
        while (true)
        {
            var lf = wire[pos..].IndexOf((byte)'\n');
            if (lf < 0)
            {
                throw new ArgumentException("The article has no \".\\r\\n\" terminator line.", nameof(wire));
            }
            var line = wire.Slice(pos, lf);
            pos += lf + 1;
            if (line.SequenceEqual("."u8) || line.SequenceEqual(".\r"u8))
            {
                consumed = pos;
                return [.. output];
            }
            if (line.StartsWith(".."u8))
            {
                line = line[1..];
            }
            switch (phase)
            {
                case YencDecoderPhase.Preamble when YencKeywordFields.IsKeyword(line, "begin"u8):
                    if (YencKeywordLine.ValidateBegin(line))
                    {
                        beginLine = line;
                        phase = YencDecoderPhase.AwaitPart;
                    }
                    else
                    {
                        header = YencKeywordLine.ParseBegin(line, default);
                        phase = YencDecoderPhase.Data;
                    }
                    break;
                case YencDecoderPhase.AwaitPart:
                    if (!YencKeywordFields.IsKeyword(line, "part"u8))
                    {
                        throw new YencException("The =ybegin line has part= but the next line is not an =ypart line.");
                    }
                    header = YencKeywordLine.ParseBegin(beginLine, line);
                    phase = YencDecoderPhase.Data;
                    break;
                case YencDecoderPhase.Data when line.StartsWith("=y"u8):
                    if (!YencKeywordFields.IsKeyword(line, "end"u8))
                    {
                        throw new YencException("Unexpected yEnc keyword line among the data lines.");
                    }
                    trailer = YencKeywordLine.ParseEnd(line);
                    phase = YencDecoderPhase.Trailer;
                    break;
                case YencDecoderPhase.Data:
                    DecodeLine(line, output);
                    break;
            }
        }
    }

    private static void DecodeLine(ReadOnlySpan<byte> line, List<byte> output)
    {
        for (var j = 0; j < line.Length; j++)
        {
            var c = line[j];
            if (c == (byte)'\r')
            {
                continue;
            }
            if (c != (byte)'=')
            {
                output.Add(unchecked((byte)(c - 42)));
                continue;
            }
            // '=' escapes the next byte, unless the line (or a stray CR) comes first: then it is dropped.
            if (j + 1 < line.Length && line[j + 1] != (byte)'\r')
            {
                j++;
                output.Add(unchecked((byte)(line[j] - 64 - 42)));
            }
        }
    }
}
