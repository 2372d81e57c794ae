using System.Buffers;
using System.Text;

namespace NzbDav.Usenet.Nntp;

/// <summary>A response's first line: the three-digit code and the text after it.</summary>
internal readonly record struct NntpStatusLine(int Code, string Text)
{
    /// <summary>Longer than this without a line end is not NNTP.</summary>
    public const int MaxLength = 4096;

    public override string ToString() => $"{Code} {Text}";

    /// <summary>Parses a line without its CRLF.</summary>
    public static NntpStatusLine Parse(ReadOnlySequence<byte> line)
    {
        Span<byte> head = stackalloc byte[3];
        if (line.Length < 3)
        {
            throw new NntpProtocolException($"Malformed status line '{Encoding.ASCII.GetString(line)}'.");
        }
        line.Slice(0, 3).CopyTo(head);
        var code = 0;
        foreach (var c in head)
        {
            if (c is < (byte)'0' or > (byte)'9')
            {
                throw new NntpProtocolException($"Malformed status line '{Encoding.ASCII.GetString(line)}'.");
            }
            code = (code * 10) + (c - '0');
        }
        var text = line.Length > 4 ? Encoding.ASCII.GetString(line.Slice(4)) : "";
        return new NntpStatusLine(code, text);
    }
}
