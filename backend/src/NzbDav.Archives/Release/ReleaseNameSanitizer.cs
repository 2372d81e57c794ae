using System.Text;

namespace NzbDav.Archives.Release;

/// <summary>
/// Turns a poster-supplied name (PAR2, subject, yEnc) into a safe relative path for the virtual tree:
/// no absolute paths, no <c>.</c>/<c>..</c> segments, no control characters, <c>/</c> as separator.
/// </summary>
public static class ReleaseNameSanitizer
{
    /// <summary>The safe relative path, or null when nothing usable is left.</summary>
    public static string? Sanitize(string? name)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            return null;
        }

        var path = new StringBuilder(name.Length);
        foreach (var raw in name.Replace('\\', '/').Split('/'))
        {
            var segment = CleanSegment(raw);
            if (segment.Length == 0 || segment is "." or "..")
            {
                continue;
            }

            if (path.Length > 0)
            {
                path.Append('/');
            }

            path.Append(segment);
        }

        return path.Length == 0 ? null : path.ToString();
    }

    private static string CleanSegment(string segment)
    {
        var clean = new StringBuilder(segment.Length);
        foreach (var c in segment)
        {
            if (!char.IsControl(c))
            {
                clean.Append(c);
            }
        }

        return clean.ToString().Trim();
    }
}
