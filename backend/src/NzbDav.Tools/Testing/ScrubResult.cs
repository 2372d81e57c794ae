namespace NzbDav.Tools.Testing;

/// <summary>One scrub: seek to <see cref="Percent"/> % of the file, then the first read.</summary>
public sealed record ScrubResult(int Percent, long Position, TimeSpan Elapsed, int BytesReturned);
