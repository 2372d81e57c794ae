namespace NzbDav.Server.Configuration;

/// <summary>SABnzbd category rules.</summary>
public static class SabCategories
{
    /// <summary>SABnzbd's "no category".</summary>
    public const string Default = "*";

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
