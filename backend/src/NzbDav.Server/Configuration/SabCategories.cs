namespace NzbDav.Server.Configuration;

/// <summary>SABnzbd category rules.</summary>
public static class SabCategories
{
    /// <summary>SABnzbd's "no category".</summary>
    public const string Default = "*";

    /// <summary>
    /// Whether <paramref name="name"/> can be a category: it becomes a folder of the WebDAV tree and
    /// a path segment on the mount, so letters, digits, '-', '_' and '.' only, 1 to 64 of them.
    /// </summary>
    public static bool IsValidName(string name) =>
        name.Length is > 0 and <= 64 && name[0] != '.'
        && name.All(static c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');

    /// <summary>The configured category matching <paramref name="requested"/> (case-insensitive), else <see cref="Default"/> like SABnzbd.</summary>
    public static string Resolve(string? requested, IReadOnlyList<string> configured)
    {
        if (string.IsNullOrWhiteSpace(requested))
            return Default;
        foreach (var category in configured)
        {
            if (category.Equals(requested.Trim(), StringComparison.OrdinalIgnoreCase))
                return category;
        }

        return Default;
    }
}
