using System.Buffers;
using NzbDav.MockNntp.Yenc;

namespace NzbDav.MockNntp.Articles;

/// <summary>Produces only the data lines of a yEnc part, so a block can be encoded once and framed per article.</summary>
internal static class YencDataLines
{
    public const int LineLength = 128;

    private static readonly YencEncoderOptions WireOptions = new() { LineLength = LineLength, DotStuff = true };

    public static MockEncodedData Encode(ReadOnlySpan<byte> data)
    {
        var writer = new ArrayBufferWriter<byte>(data.Length + (data.Length / 16) + 512);
        // Data lines do not depend on the part's position, so any spec works; its header and
        // trailer lines are cut off below.
        YencEncoder.Encode(data, new YencPartSpec("x", data.Length, 1, 1, 0), writer, WireOptions);
        var all = writer.WrittenSpan;
        var start = SkipLines(all, 2);
        // The trailer is the last line; no data line can start with "=y" (escapes never produce 'y').
        var trailerStart = all[..^2].LastIndexOf("\r\n"u8) + 2;
        var lines = trailerStart > start ? all[start..trailerStart].ToArray() : [];
        return new MockEncodedData(lines, System.IO.Hashing.Crc32.HashToUInt32(data));
    }

    private static int SkipLines(ReadOnlySpan<byte> text, int count)
    {
        var position = 0;
        for (var i = 0; i < count; i++)
        {
            position += text[position..].IndexOf("\r\n"u8) + 2;
        }
        return position;
    }
}
