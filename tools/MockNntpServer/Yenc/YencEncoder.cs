using System.Buffers;
using System.Globalization;
using System.Text;

namespace NzbDav.MockNntp.Yenc;

/// <summary>
/// yEnc 1.3 encoder. Used by the mock NNTP server to post content, by tests as the other half of
/// decoder round trips and by the decode benchmark; NzbDav itself never encodes, so it lives here
/// rather than in the protocol library, and favours clarity over speed.
/// </summary>
public static class YencEncoder
{
    /// <summary>Encodes one article: header line(s), data lines, trailer, each ending in CRLF.</summary>
    public static void Encode(ReadOnlySpan<byte> data, YencPartSpec spec, IBufferWriter<byte> output, YencEncoderOptions? options = null)
    {
        options ??= YencEncoderOptions.Default;
        if (options.LineLength < 2)
        {
            throw new ArgumentOutOfRangeException(nameof(options), "yEnc lines must hold at least two characters.");
        }

        WriteHeader(data.Length, spec, output, options);
        WriteData(data, output, options);
        WriteTrailer(data, spec, output);
    }

    /// <summary>Encodes one article into a new array.</summary>
    public static byte[] Encode(ReadOnlySpan<byte> data, YencPartSpec spec, YencEncoderOptions? options = null)
    {
        var writer = new ArrayBufferWriter<byte>(data.Length + (data.Length / 32) + 256);
        Encode(data, spec, writer, options);
        return writer.WrittenSpan.ToArray();
    }

    private static void WriteHeader(int length, YencPartSpec spec, IBufferWriter<byte> output, YencEncoderOptions options)
    {
        var header = new StringBuilder("=ybegin");
        if (spec.Part is { } part)
        {
            header.Append(CultureInfo.InvariantCulture, $" part={part}");
        }
        if (spec.TotalParts is { } total)
        {
            header.Append(CultureInfo.InvariantCulture, $" total={total}");
        }
        header.Append(CultureInfo.InvariantCulture, $" line={options.LineLength} size={spec.FileSize} name={spec.FileName}\r\n");
        if (spec.Part is not null)
        {
            header.Append(CultureInfo.InvariantCulture, $"=ypart begin={spec.PartBegin + 1} end={spec.PartBegin + length}\r\n");
        }
        WriteAscii(header.ToString(), output);
    }

    private static void WriteTrailer(ReadOnlySpan<byte> data, YencPartSpec spec, IBufferWriter<byte> output)
    {
        var crc = System.IO.Hashing.Crc32.HashToUInt32(data);
        var trailer = new StringBuilder();
        trailer.Append(CultureInfo.InvariantCulture, $"=yend size={data.Length}");
        if (spec.Part is { } part)
        {
            trailer.Append(CultureInfo.InvariantCulture, $" part={part} pcrc32={crc:x8}");
            if (spec.FileCrc32 is { } fileCrc)
            {
                trailer.Append(CultureInfo.InvariantCulture, $" crc32={fileCrc:x8}");
            }
        }
        else
        {
            trailer.Append(CultureInfo.InvariantCulture, $" crc32={crc:x8}");
        }
        trailer.Append("\r\n");
        WriteAscii(trailer.ToString(), output);
    }

    private static void WriteData(ReadOnlySpan<byte> data, IBufferWriter<byte> output, YencEncoderOptions options)
    {
        // Worst case per line: every character escaped, one leading dot-stuff '.', CRLF.
        var lineMax = (options.LineLength * 2) + 4;
        var i = 0;
        while (i < data.Length)
        {
            var line = output.GetSpan(lineMax);
            var n = 0;
            var lineStart = true;
            while (i < data.Length && n < options.LineLength)
            {
                var c = (byte)(data[i] + 42);
                var isLast = i == data.Length - 1 || n + 1 >= options.LineLength;
                // NUL, LF, CR and '=' are always escaped; TAB and SPACE only where a transport
                // could strip them (line start or end), as the yEnc 1.3 spec recommends.
                var escape = c is 0x00 or 0x0A or 0x0D or 0x3D
                    || (c is 0x09 or 0x20 && (lineStart || isLast));
                if (escape)
                {
                    line[n++] = (byte)'=';
                    line[n++] = (byte)(c + 64);
                }
                else
                {
                    if (lineStart && c == (byte)'.' && options.DotStuff)
                    {
                        line[n++] = (byte)'.';
                    }
                    line[n++] = c;
                }
                lineStart = false;
                i++;
            }
            line[n++] = (byte)'\r';
            line[n++] = (byte)'\n';
            output.Advance(n);
        }
    }

    private static void WriteAscii(string text, IBufferWriter<byte> output)
    {
        var span = output.GetSpan(text.Length);
        var n = Encoding.ASCII.GetBytes(text, span);
        output.Advance(n);
    }
}
