using System.Text;

namespace NzbDav.Archives.Entries;

/// <summary>Turns a stored entry name into a safe relative path, refusing names that escape the archive.</summary>
internal static class ArchivePath
{
    /// <summary>Normalizes separators to '/', drops '.' and empty segments, rejects '..', drive letters and control characters.</summary>
    public static string Normalize(string raw, string format)
    {
        var builder = new StringBuilder(raw.Length);
        foreach (var segment in raw.Replace('\\', '/').Split('/'))
        {
            if (segment.Length == 0 || segment == ".")
            {
                continue;
            }

            if (segment == "..")
            {
                throw new ArchiveFormatException($"{format} entry '{raw}' has a '..' path segment; names that leave the archive are refused");
            }

            if (builder.Length == 0 && segment.Length == 2 && segment[1] == ':' && char.IsAsciiLetter(segment[0]))
            {
                throw new ArchiveFormatException($"{format} entry '{raw}' is an absolute Windows path; names that leave the archive are refused");
            }

            foreach (var c in segment)
            {
                if (char.IsControl(c))
                {
                    throw new ArchiveFormatException($"{format} entry name '{Printable(raw)}' contains a control character");
                }
            }

            if (builder.Length > 0)
            {
                builder.Append('/');
            }

            builder.Append(segment);
        }

        if (builder.Length == 0)
        {
            throw new ArchiveFormatException($"{format} entry has an empty name ('{Printable(raw)}')");
        }

        return builder.ToString();
    }

    private static string Printable(string raw)
    {
        var chars = raw.ToCharArray();
        for (var i = 0; i < chars.Length; i++)
        {
            if (char.IsControl(chars[i]))
            {
                chars[i] = '?';
            }
        }

        return new string(chars);
    }
}
