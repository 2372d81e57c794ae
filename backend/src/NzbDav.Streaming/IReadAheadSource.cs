namespace NzbDav.Streaming;

/// <summary>A stream that fetches ahead of its reader and can say how much it holds, for the dashboard.</summary>
public interface IReadAheadSource
{
    /// <summary>
    /// Bytes fetched and not yet read: what the reader can still consume without waiting for the
    /// network. Read from another thread, so a close estimate (within about one segment around a seek).
    /// </summary>
    long BytesAhead { get; }

    /// <summary>
    /// Decoded bytes this stream fetched from providers (every attempt, read or not). Read from
    /// another thread; only grows.
    /// </summary>
    long BytesFetched { get; }

    /// <summary>
    /// Decoded bytes this stream took from the segment cache or from another stream's fetch in
    /// flight instead of fetching them. Read from another thread; only grows.
    /// </summary>
    long BytesShared { get; }
}
