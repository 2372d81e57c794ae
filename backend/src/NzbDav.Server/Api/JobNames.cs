using System.Text;
using System.Text.RegularExpressions;

namespace NzbDav.Server.Api;

/// <summary>Job names from upload names, with the <c>{{password}}</c> convention.</summary>
public static partial class JobNames
{
    /// <summary>Removes a trailing <c>.nzb</c> (and <c>.gz</c>) and takes out <c>{{password}}</c>.</summary>
    public static (string Name, string? Password) Split(string raw)
    {
        var name = raw.Trim();
        if (name.EndsWith(".gz", StringComparison.OrdinalIgnoreCase))
            name = name[..^3];
        if (name.EndsWith(".nzb", StringComparison.OrdinalIgnoreCase))
            name = name[..^4];
        string? password = null;
        var match = PasswordPattern().Match(name);
        if (match.Success)
        {
            password = match.Groups[1].Value;
            name = name.Remove(match.Index, match.Length).Trim();
        }

        return (Sanitize(name), string.IsNullOrEmpty(password) ? null : password);
    }

    /// <summary>A single path segment: no separators or control characters, never empty or a dot name.</summary>
    public static string Sanitize(string name)
    {
        var builder = new StringBuilder(name.Length);
        foreach (var c in name)
            builder.Append(c is '/' or '\\' || char.IsControl(c) ? ' ' : c);
        var clean = builder.ToString().Trim().TrimEnd('.');
        return clean.Length == 0 ? "nzb" : clean;
    }

    [GeneratedRegex(@"\{\{(.*?)\}\}")]
    private static partial Regex PasswordPattern();
}
