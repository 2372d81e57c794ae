namespace NzbDav.Streaming;

/// <summary>
/// A read reached a segment that no provider delivered intact (missing everywhere, corrupt
/// everywhere, or every attempt failed). Nothing of it was returned as zeros or cut short.
/// </summary>
public sealed class SegmentUnavailableException(int segmentNumber, string messageId, string reason, Exception? inner = null)
    : IOException($"Segment {segmentNumber} <{messageId}> could not be fetched: {reason}", inner)
{
    /// <summary>The NZB segment number (1-based part number).</summary>
    public int SegmentNumber { get; } = segmentNumber;

    /// <summary>The article's message-id, without angle brackets.</summary>
    public string MessageId { get; } = messageId;
}
