namespace NzbDav.Streaming;

/// <summary>Marks a fetch failure that no retry can fix (the article is corrupt here and absent everywhere else).</summary>
internal sealed class SegmentFetchFatalException(string message, Exception inner) : Exception(message, inner);
