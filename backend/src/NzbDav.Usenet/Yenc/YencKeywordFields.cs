using System.Text;

namespace NzbDav.Usenet.Yenc;

/// <summary>Token-level helpers for yEnc keyword lines: <c>=yXXX key=value key=value ... name=rest of line</c>.</summary>
internal static class YencKeywordFields
{
    private const int MaxDescribedLength = 200;

    /// <summary>Drops trailing CR, LF, spaces and tabs (sloppy posters leave spaces at line ends).</summary>
    public static ReadOnlySpan<byte> Trim(ReadOnlySpan<byte> line) => line.TrimEnd(" \t\r\n"u8);

    /// <summary>True when <paramref name="line"/> is "=y" + <paramref name="keyword"/> (any case) followed by a blank or the end.</summary>
    public static bool IsKeyword(ReadOnlySpan<byte> line, ReadOnlySpan<byte> keyword)
    {
        if (line.Length < 2 + keyword.Length || line[0] != (byte)'=' || line[1] != (byte)'y')
        {
            return false;
        }
        if (!Ascii.EqualsIgnoreCase(line.Slice(2, keyword.Length), keyword))
        {
            return false;
        }
        return line.Length == 2 + keyword.Length || IsBlank(line[2 + keyword.Length]);
    }

    /// <summary>
    /// Finds <c>key=value</c> among the line's blank-separated tokens. <c>name=</c> ends the scan:
    /// its value is the rest of the line, so text inside a file name is never taken for a key.
    /// </summary>
    public static bool TryGetValue(ReadOnlySpan<byte> line, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var rest = line[(line.IndexOfAny(" \t"u8) is var first and >= 0 ? first : line.Length)..];
        while (true)
        {
            rest = rest.TrimStart(" \t"u8);
            if (rest.IsEmpty)
            {
                value = default;
                return false;
            }
            var end = rest.IndexOfAny(" \t"u8);
            var token = end < 0 ? rest : rest[..end];
            var equals = token.IndexOf((byte)'=');
            var tokenKey = equals < 0 ? token : token[..equals];
            if (equals >= 0 && Ascii.EqualsIgnoreCase(tokenKey, "name"u8))
            {
                var wantName = Ascii.EqualsIgnoreCase(key, "name"u8);
                value = wantName ? rest[(equals + 1)..] : default;
                return wantName;
            }
            if (equals >= 0 && Ascii.EqualsIgnoreCase(tokenKey, key))
            {
                value = token[(equals + 1)..];
                return true;
            }
            rest = end < 0 ? default : rest[end..];
        }
    }

    public static long RequireLong(ReadOnlySpan<byte> line, ReadOnlySpan<byte> key, string kind)
        => OptionalLong(line, key, kind)
            ?? throw new YencException($"The {kind} line has no {Encoding.ASCII.GetString(key)}=: {Describe(line)}");

    public static int? OptionalInt(ReadOnlySpan<byte> line, ReadOnlySpan<byte> key, string kind)
    {
        var value = OptionalLong(line, key, kind);
        if (value > int.MaxValue)
        {
            throw new YencException($"The {kind} {Encoding.ASCII.GetString(key)}= value is too large: {Describe(line)}");
        }
        return (int?)value;
    }

    public static long? OptionalLong(ReadOnlySpan<byte> line, ReadOnlySpan<byte> key, string kind)
    {
        if (!TryGetValue(line, key, out var text))
        {
            return null;
        }
        if (text.IsEmpty || text.Length > 18)
        {
            throw Bad(kind, key, line);
        }
        long value = 0;
        foreach (var c in text)
        {
            if (c is < (byte)'0' or > (byte)'9')
            {
                throw Bad(kind, key, line);
            }
            value = (value * 10) + (c - '0');
        }
        return value;
    }

    public static uint? OptionalHex(ReadOnlySpan<byte> line, ReadOnlySpan<byte> key)
    {
        if (!TryGetValue(line, key, out var text))
        {
            return null;
        }
        if (text.Length > 2 && text[0] == (byte)'0' && (text[1] | 0x20) == (byte)'x')
        {
            text = text[2..];
        }
        if (text.IsEmpty || text.Length > 8)
        {
            throw Bad("=yend", key, line);
        }
        uint value = 0;
        foreach (var c in text)
        {
            var digit = c switch
            {
                >= (byte)'0' and <= (byte)'9' => c - '0',
                >= (byte)'a' and <= (byte)'f' => c - 'a' + 10,
                >= (byte)'A' and <= (byte)'F' => c - 'A' + 10,
                _ => throw Bad("=yend", key, line),
            };
            value = (value << 4) | (uint)digit;
        }
        return value;
    }

    /// <summary>The line as printable ASCII for an error message, shortened.</summary>
    public static string Describe(ReadOnlySpan<byte> line)
    {
        var shown = line.Length > MaxDescribedLength ? line[..MaxDescribedLength] : line;
        var chars = new char[shown.Length];
        for (var i = 0; i < shown.Length; i++)
        {
            chars[i] = shown[i] is >= 0x20 and < 0x7F ? (char)shown[i] : '?';
        }
        var text = new string(chars);
        return line.Length > MaxDescribedLength ? $"\"{text}...\"" : $"\"{text}\"";
    }

    private static bool IsBlank(byte c) => c is (byte)' ' or (byte)'\t';

    private static YencException Bad(string kind, ReadOnlySpan<byte> key, ReadOnlySpan<byte> line)
        => new($"The {kind} {Encoding.ASCII.GetString(key)}= value is not a valid number: {Describe(line)}");
}
