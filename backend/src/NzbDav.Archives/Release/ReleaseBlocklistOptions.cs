namespace NzbDav.Archives.Release;

/// <summary>Which release files are hidden from the virtual tree.</summary>
public sealed class ReleaseBlocklistOptions
{
    /// <summary>
    /// The defaults: <c>*.par2</c>, <c>*.nfo</c>, <c>*.sfv</c>, <c>*.srr</c>, <c>*.srs</c>, <c>*.url</c>,
    /// <c>*.txt</c>, <c>*.exe</c>, <c>*.lnk</c> (junk and the malware often bundled with fake releases),
    /// and video samples: <c>sample.*</c>, <c>*-sample.*</c>, <c>*.sample.*</c>, <c>*_sample.*</c> and anything
    /// under a <c>sample/</c> folder. Subtitles (<c>.srt</c>, <c>.sub</c>, <c>.idx</c>, <c>.ass</c>) are kept, and a
    /// title merely containing "sample" (<c>Sampled.Lives.2020.mkv</c>) is not a sample.
    /// </summary>
    public static IReadOnlyList<string> DefaultPatterns { get; } =
    [
        "*.par2", "*.nfo", "*.sfv", "*.srr", "*.srs", "*.url", "*.txt", "*.exe", "*.lnk",
        "sample.*", "*-sample.*", "*.sample.*", "*_sample.*", "sample/**",
    ];

    /// <summary>
    /// Glob patterns, matched case-insensitively. <c>*</c> stays within a path segment, <c>**</c> crosses
    /// segments, <c>?</c> is one character. A pattern without <c>/</c> is matched against the file name; one
    /// with <c>/</c> against the path from any folder down (anchor it at the job root with a leading <c>/</c>).
    /// Defaults to <see cref="DefaultPatterns"/>.
    /// </summary>
    public IList<string> Patterns { get; set; } = [.. DefaultPatterns];
}
