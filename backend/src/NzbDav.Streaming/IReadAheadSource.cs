namespace NzbDav.Streaming;

/// <summary>A stream that fetches ahead of its reader and can say how much it holds, for the dashboard.</summary>
public interface IReadAheadSource
{
    /// <summary>
    /// Bytes fetched and not yet read: what the reader can still consume without waiting for the
    /// network. Read from another thread, so a close estimate (within about one segment around a seek).
    /// </summary>
    long BytesAhead { get; }
}
