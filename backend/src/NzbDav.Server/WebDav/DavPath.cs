using System.Text;
using Microsoft.AspNetCore.Http.Features;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Splits the request target into decoded path segments, refusing anything that could name a node
/// outside the tree: dot segments (also percent-encoded), encoded or literal backslashes, encoded
/// slashes, control characters and invalid escapes or UTF-8. Decoding happens exactly once, so a
/// double-encoded <c>%252e%252e</c> is the literal name <c>%2e%2e</c>, which no node has.
/// </summary>
public static class DavPath
{
    /// <summary>The segments of the request's path, or null when the path is refused (answer 400).</summary>
    public static IReadOnlyList<string>? Parse(HttpContext context)
    {
        // The raw target still holds what the client sent; Request.Path has dot segments already folded away.
        var raw = context.Features.Get<IHttpRequestFeature>()?.RawTarget;
        if (string.IsNullOrEmpty(raw) || raw[0] != '/')
            raw = context.Request.PathBase.Add(context.Request.Path).ToUriComponent();
        var query = raw.IndexOfAny(['?', '#']);
        if (query >= 0)
            raw = raw[..query];
        return ParseRaw(raw);
    }

    /// <summary>Parses an encoded absolute path (<c>/a/b%20c/</c>).</summary>
    public static IReadOnlyList<string>? ParseRaw(string rawPath)
    {
        if (rawPath.Length == 0 || rawPath[0] != '/')
            return null;
        var segments = new List<string>();
        foreach (var encoded in rawPath.Split('/'))
        {
            if (encoded.Length == 0)
                continue;
            var segment = Decode(encoded);
            if (segment is null || segment is "." or ".." || !IsSafe(segment))
                return null;
            segments.Add(segment);
        }

        return segments;
    }

    /// <summary>Splits an already decoded absolute path (as the UI sends one in a query string), with the same refusals.</summary>
    public static IReadOnlyList<string>? ParseDecoded(string? path)
    {
        if (string.IsNullOrEmpty(path) || path[0] != '/')
            return null;
        var segments = new List<string>();
        foreach (var segment in path.Split('/'))
        {
            if (segment.Length == 0)
                continue;
            if (segment is "." or ".." || !IsSafe(segment))
                return null;
            segments.Add(segment);
        }

        return segments;
    }

    private static bool IsSafe(string segment)
    {
        foreach (var c in segment)
        {
            if (c is '/' or '\\' || char.IsControl(c))
                return false;
        }

        return true;
    }

    private static string? Decode(string encoded)
    {
        if (!encoded.Contains('%'))
            return encoded;
        var bytes = new List<byte>(encoded.Length);
        var i = 0;
        while (i < encoded.Length)
        {
            if (encoded[i] == '%')
            {
                if (i + 2 >= encoded.Length || !char.IsAsciiHexDigit(encoded[i + 1]) || !char.IsAsciiHexDigit(encoded[i + 2]))
                    return null;
                bytes.Add(Convert.ToByte(encoded.Substring(i + 1, 2), 16));
                i += 3;
                continue;
            }

            // A literal run up to the next escape, converted as a whole so surrogate pairs stay intact.
            var next = encoded.IndexOf('%', i);
            var end = next < 0 ? encoded.Length : next;
            bytes.AddRange(Encoding.UTF8.GetBytes(encoded[i..end]));
            i = end;
        }

        try
        {
            return new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(bytes.ToArray());
        }
        catch (DecoderFallbackException)
        {
            return null;
        }
    }
}
