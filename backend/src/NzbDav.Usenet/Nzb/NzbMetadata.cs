using System.Collections.ObjectModel;

namespace NzbDav.Usenet.Nzb;

/// <summary>
/// The <c>&lt;meta type="…"&gt;</c> entries of an NZB's head. Well-known types are matched
/// case-insensitively; empty values are kept in <see cref="All"/> but never become a name,
/// category or password.
/// </summary>
public sealed class NzbMetadata
{
    /// <summary>Metadata of an NZB without a head.</summary>
    public static NzbMetadata Empty { get; } = new([]);

    /// <summary>Creates metadata from (type, value) pairs in document order; the list is copied.</summary>
    public NzbMetadata(IReadOnlyList<KeyValuePair<string, string>> all)
    {
        ArgumentNullException.ThrowIfNull(all);
        KeyValuePair<string, string>[] entries = [.. all];
        List<string>? passwords = null;
        foreach (var (type, value) in entries)
        {
            if (value.Length == 0)
                continue;
            if (type.Equals("name", StringComparison.OrdinalIgnoreCase))
            {
                Name ??= value;
            }
            else if (type.Equals("category", StringComparison.OrdinalIgnoreCase))
            {
                Category ??= value;
            }
            else if (type.Equals("password", StringComparison.OrdinalIgnoreCase))
            {
                passwords ??= [];
                if (!passwords.Contains(value, StringComparer.Ordinal))
                    passwords.Add(value);
            }
        }

        All = new ReadOnlyCollection<KeyValuePair<string, string>>(entries);
        Passwords = passwords is null ? ReadOnlyCollection<string>.Empty : passwords.AsReadOnly();
    }

    /// <summary>The first non-empty <c>name</c> meta, or null.</summary>
    public string? Name { get; }

    /// <summary>The first non-empty <c>category</c> meta, or null.</summary>
    public string? Category { get; }

    /// <summary>Every distinct non-empty <c>password</c> meta, in document order.</summary>
    public IReadOnlyList<string> Passwords { get; }

    /// <summary>Every meta entry as (type, value), in document order.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> All { get; }
}
