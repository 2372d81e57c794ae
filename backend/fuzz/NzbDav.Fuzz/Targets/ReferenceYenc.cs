namespace NzbDav.Fuzz.Targets;

/// <summary>
/// A deliberately plain yEnc decoder written from the yEnc 1.3 text, for comparison only. It accepts
/// only the strict shape: CRLF lines; "=ybegin" (and "=ypart" when the begin line has " part=");
/// data lines; "=yend"; then the "." terminator line. NNTP dot-stuffing: a line starting ".." loses its
/// first dot. In data, '=' escapes the next byte (minus 64); every byte is then minus 42 mod 256.
/// Anything outside that shape (a bare CR or LF, an escape at a line end, a lone leading dot) gives null.
/// </summary>
public static class ReferenceYenc
{
    public static byte[]? TryDecode(ReadOnlySpan<byte> body)
    {
        var lines = new List<byte[]>();
        var start = 0;
        for (var i = 0; i + 1 < body.Length; i++)
        {
            if (body[i] == '\r' && body[i + 1] == '\n')
            {
                lines.Add(body[start..i].ToArray());
                start = i + 2;
                i++;
            }
        }
        // Nothing may follow the terminator line; every line ends with CRLF, and no line holds a bare CR or LF.
        if (start != body.Length || lines.Exists(l => l.AsSpan().IndexOfAny((byte)'\r', (byte)'\n') >= 0))
        {
            return null;
        }
        var index = 0;
        while (index < lines.Count && !StartsWith(lines[index], "=ybegin "u8))
        {
            if (lines[index].AsSpan().StartsWith("=y"u8) || (lines[index].Length > 0 && lines[index][0] == '.'))
            {
                return null;
            }
            index++;
        }
        if (index == lines.Count)
        {
            return null;
        }
        var multipart = lines[index].AsSpan().IndexOf(" part="u8) >= 0;
        index++;
        if (multipart)
        {
            if (index == lines.Count || !StartsWith(lines[index], "=ypart "u8))
            {
                return null;
            }
            index++;
        }
        var output = new List<byte>();
        for (; index < lines.Count; index++)
        {
            var line = lines[index].AsSpan();
            if (line.StartsWith("=yend"u8))
            {
                // After =yend only the terminator line may follow.
                return index + 2 == lines.Count && lines[index + 1].AsSpan().SequenceEqual("."u8) ? [.. output] : null;
            }
            if (line.StartsWith("=y"u8))
            {
                return null;
            }
            if (line.Length > 0 && line[0] == '.')
            {
                if (line.Length < 2 || line[1] != '.')
                {
                    return null;
                }
                line = line[1..];
            }
            for (var i = 0; i < line.Length; i++)
            {
                var b = line[i];
                if (b == '=')
                {
                    if (i + 1 == line.Length)
                    {
                        return null;
                    }
                    b = (byte)(line[++i] - 64);
                }
                output.Add(unchecked((byte)(b - 42)));
            }
        }
        return null;
    }

    private static bool StartsWith(byte[] line, ReadOnlySpan<byte> prefix) => line.AsSpan().StartsWith(prefix);
}
