namespace NzbDav.Usenet.Nzb;

/// <summary>Heuristics over Usenet post subjects.</summary>
public static class NzbSubject
{
    private const int MaxExtensionLength = 10;

    /// <summary>
    /// The file name a poster put in <paramref name="subject"/>. In order of preference: the first
    /// quoted token that looks like a file name (has an extension); a quoted token right before
    /// <c>yEnc</c> (obfuscated names often have no extension); the subject without its part
    /// counters, <c>yEnc</c> marker and size when that looks like a file name; a bracketed token
    /// that looks like a file name; otherwise the trimmed subject. Empty for an empty subject.
    /// </summary>
    public static string ExtractFileName(string subject)
    {
        ArgumentNullException.ThrowIfNull(subject);
        var text = subject.AsSpan().Trim();
        if (text.IsEmpty)
            return string.Empty;
        if (TryQuoted(text, out var quoted))
            return quoted;

        var core = StripDecorations(text);
        if (LooksLikeFileName(core))
            return core.Length == subject.Length ? subject : core.ToString();
        if (TryBracketed(text, out var bracketed))
            return bracketed;
        return text.Length == subject.Length ? subject : text.ToString();
    }

    // Requires a short alphanumeric extension: subjects are full of dots ("v1.0", "a.b.teevee@EFNet")
    // that are not file names.
    internal static bool LooksLikeFileName(ReadOnlySpan<char> name)
    {
        var dot = name.LastIndexOf('.');
        if (dot <= 0 || dot == name.Length - 1 || name.Length - dot - 1 > MaxExtensionLength)
            return false;
        if (name.Contains('"'))
            return false;
        foreach (var c in name[(dot + 1)..])
        {
            if (!char.IsAsciiLetterOrDigit(c))
                return false;
        }

        return true;
    }

    private static bool TryQuoted(ReadOnlySpan<char> text, out string name)
    {
        string? beforeYenc = null;
        var rest = text;
        while (TryNextEnclosed(ref rest, '"', '"', out var token))
        {
            if (LooksLikeFileName(token))
            {
                name = token.ToString();
                return true;
            }

            if (beforeYenc is null && !token.IsEmpty && rest.TrimStart().StartsWith("yEnc", StringComparison.OrdinalIgnoreCase))
                beforeYenc = token.ToString();
        }

        name = beforeYenc ?? string.Empty;
        return beforeYenc is not null;
    }

    // The next trimmed token between `open` and `close` in `rest`; `rest` moves past the closing delimiter.
    private static bool TryNextEnclosed(ref ReadOnlySpan<char> rest, char open, char close, out ReadOnlySpan<char> token)
    {
        token = default;
        var start = rest.IndexOf(open);
        if (start < 0)
            return false;
        var end = rest[(start + 1)..].IndexOf(close);
        if (end < 0)
            return false;
        end += start + 1;

        token = rest[(start + 1)..end].Trim();
        rest = rest[(end + 1)..];
        return true;
    }

    private static bool TryBracketed(ReadOnlySpan<char> text, out string name)
    {
        var rest = text;
        while (TryNextEnclosed(ref rest, '[', ']', out var token))
        {
            if (LooksLikeFileName(token))
            {
                name = token.ToString();
                return true;
            }
        }

        name = string.Empty;
        return false;
    }

    // Removes "[01/10] -" style prefixes (and leading tags in brackets) and "yEnc (1/50) 123456"
    // style suffixes, leaving what posters put between them.
    private static ReadOnlySpan<char> StripDecorations(ReadOnlySpan<char> text)
    {
        var core = text.Trim();
        while (!core.IsEmpty)
        {
            if (core[0] == '-')
                core = core[1..].TrimStart();
            else if (core[0] == '[' && core.IndexOf(']') is var end and > 0)
                core = core[(end + 1)..].TrimStart();
            else if (core[0] == '(' && core.IndexOf(')') is var paren and > 0 && IsCounter(core[1..paren]))
                core = core[(paren + 1)..].TrimStart();
            else
                break;
        }

        while (!core.IsEmpty)
        {
            if (TryStripTrailingCounter(core, out var shorter))
            {
                core = shorter;
                continue;
            }

            var space = core.LastIndexOfAny(' ', '\t');
            var last = core[(space + 1)..];
            if (!last.Equals("yEnc", StringComparison.OrdinalIgnoreCase) && !IsDigits(last))
                break;
            core = space < 0 ? [] : core[..space].TrimEnd();
        }

        return core;
    }

    private static bool TryStripTrailingCounter(ReadOnlySpan<char> text, out ReadOnlySpan<char> shorter)
    {
        shorter = text;
        var closer = text[^1];
        var opener = closer switch { ')' => '(', ']' => '[', _ => '\0' };
        if (opener == '\0')
            return false;
        var open = text.LastIndexOf(opener);
        if (open < 0 || !IsCounter(text[(open + 1)..^1]))
            return false;
        shorter = text[..open].TrimEnd();
        return true;
    }

    // "1/50", " 01 / 10 ".
    private static bool IsCounter(ReadOnlySpan<char> text)
    {
        var slash = text.IndexOf('/');
        return slash > 0 && IsDigits(text[..slash].Trim()) && IsDigits(text[(slash + 1)..].Trim());
    }

    private static bool IsDigits(ReadOnlySpan<char> text) => !text.IsEmpty && !text.ContainsAnyExceptInRange('0', '9');
}
