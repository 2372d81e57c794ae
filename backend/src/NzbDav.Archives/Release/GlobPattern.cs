namespace NzbDav.Archives.Release;

/// <summary>
/// A case-insensitive glob over <c>/</c>-separated paths: <c>*</c> any run within a segment, <c>**</c> any
/// run across segments, <c>?</c> one character. A pattern without <c>/</c> matches the file name; one with
/// <c>/</c> matches the path or any tail of it starting at a segment, unless it starts with <c>/</c>.
/// </summary>
internal sealed class GlobPattern
{
    private readonly string _pattern;
    private readonly bool _nameOnly;
    private readonly bool _anchored;

    public GlobPattern(string pattern)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(pattern);
        var normalized = pattern.Trim().Replace('\\', '/');
        _anchored = normalized.StartsWith('/');
        _pattern = normalized.TrimStart('/').ToUpperInvariant();
        _nameOnly = !_pattern.Contains('/');
    }

    public bool IsMatch(string path)
    {
        var normalized = path.Replace('\\', '/').TrimStart('/').ToUpperInvariant();
        if (_nameOnly)
        {
            return Match(_pattern, normalized.AsSpan(normalized.LastIndexOf('/') + 1));
        }

        if (Match(_pattern, normalized))
        {
            return true;
        }

        for (var slash = normalized.IndexOf('/'); !_anchored && slash >= 0; slash = normalized.IndexOf('/', slash + 1))
        {
            if (Match(_pattern, normalized.AsSpan(slash + 1)))
            {
                return true;
            }
        }

        return false;
    }

    // Recursive backtracking: patterns are a few characters and paths short, so worst cases stay tiny.
    private static bool Match(ReadOnlySpan<char> pattern, ReadOnlySpan<char> text)
    {
        while (pattern.Length > 0)
        {
            if (pattern.StartsWith("**"))
            {
                var rest = pattern[2..];
                for (var i = 0; i <= text.Length; i++)
                {
                    if (Match(rest, text[i..]))
                    {
                        return true;
                    }
                }

                return false;
            }

            if (pattern[0] == '*')
            {
                var rest = pattern[1..];
                for (var i = 0; i <= text.Length; i++)
                {
                    if (Match(rest, text[i..]))
                    {
                        return true;
                    }

                    if (i < text.Length && text[i] == '/')
                    {
                        return false;
                    }
                }

                return false;
            }

            if (text.Length == 0 || (pattern[0] != text[0] && !(pattern[0] == '?' && text[0] != '/')))
            {
                return false;
            }

            pattern = pattern[1..];
            text = text[1..];
        }

        return text.Length == 0;
    }
}
