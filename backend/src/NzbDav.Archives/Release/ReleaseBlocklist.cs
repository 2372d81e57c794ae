namespace NzbDav.Archives.Release;

/// <summary>
/// Decides which release files are not shown (PAR2, NFO, samples…); see <see cref="ReleaseBlocklistOptions"/>
/// for the pattern syntax and defaults. Immutable after construction; safe to share.
/// </summary>
public sealed class ReleaseBlocklist
{
    private readonly GlobPattern[] _patterns;

    /// <summary>Blocklist with <see cref="ReleaseBlocklistOptions.DefaultPatterns"/>.</summary>
    public ReleaseBlocklist()
        : this(new ReleaseBlocklistOptions())
    {
    }

    /// <summary>Blocklist with the configured patterns.</summary>
    /// <exception cref="ArgumentException">A pattern is empty or blank.</exception>
    public ReleaseBlocklist(ReleaseBlocklistOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        _patterns = options.Patterns.Select(p => new GlobPattern(p)).ToArray();
    }

    /// <summary>True when <paramref name="path"/> (relative, <c>/</c> or <c>\</c> separated) matches any pattern.</summary>
    public bool IsBlocked(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        return Array.Exists(_patterns, p => p.IsMatch(path));
    }
}
