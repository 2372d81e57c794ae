namespace NzbDav.Usenet.Nzb;

/// <summary>The malformed <c>&lt;segment&gt;</c> elements of one file.</summary>
/// <param name="Count">How many were skipped.</param>
/// <param name="First">What was wrong with the first, with its line and position.</param>
public sealed record NzbMalformedSegments(int Count, string First);
