using NzbDav.Usenet.Fetching;

namespace NzbDav.Streaming;

/// <summary>
/// What a <see cref="BufferedSegmentStream"/> asks of whatever fetches its segments: fetches to
/// run (lowest order first), fetches nobody wants any more, and which one the reader is blocked
/// on. Calls come from the reader (withdrawals also from other streams' readers) and never block.
/// </summary>
internal interface ISegmentFetcher : IAsyncDisposable
{
    /// <summary>Median time from request to first decoded byte, or null before any fetch finished.</summary>
    TimeSpan? MedianTimeToFirstByte { get; }

    /// <summary>Queues a new fetch; it is picked up at the next <see cref="Wake"/>.</summary>
    void Submit(ArticleRequest request);

    /// <summary>Nobody wants the fetch any more: attempts for it that have not started may be dropped. Any thread.</summary>
    void Withdraw(ArticleRequest request);

    /// <summary>The fetch the reader is waiting for (a straggler candidate); only one this fetcher was given.</summary>
    void SetHead(ArticleRequest request);

    /// <summary>A reader of another stream waits on this fetch: send it before anything else queued. Any thread.</summary>
    void Expedite(ArticleRequest request);

    /// <summary>
    /// How many segments the reader is expected to want in flight soon (0 after a seek), so
    /// connections can be opened before the read-ahead grows into them.
    /// </summary>
    void Anticipate(int segments);

    /// <summary>
    /// Open, without leasing, enough sessions for about this many segments in flight: a read right
    /// after opening or seeking usually goes on, and connecting costs round trips. Never blocks.
    /// </summary>
    void Warm(int segments);

    /// <summary>Applies what was queued since the last call.</summary>
    void Wake();
}
