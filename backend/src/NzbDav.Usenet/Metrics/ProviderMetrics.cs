using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace NzbDav.Usenet.Metrics;

/// <summary>
/// The instruments of one provider: plain totals bumped once per article (or per connect, per breaker
/// trip) and read by <see cref="UsenetMetrics"/>'s observable counters at scrape time, plus the two
/// latency histograms. Tag arrays are built once here, so recording allocates nothing.
/// </summary>
public sealed class ProviderMetrics
{
    private readonly Histogram<double> _firstByte;
    private readonly Histogram<double> _duration;
    private readonly KeyValuePair<string, object?>[] _providerTag;
    private readonly long[] _articles = new long[4];
    private long _fetchedBytes;
    private long _receivedBytes;
    private long _refusedFull;
    private long _breakerTrips;
    private long _firstByteCount;
    private long _firstByteTicks;

    internal ProviderMetrics(string provider, Histogram<double> firstByte, Histogram<double> duration)
    {
        Provider = provider;
        _firstByte = firstByte;
        _duration = duration;
        _providerTag = [new("provider", provider)];
        OutcomeTags =
        [
            [new("provider", provider), new("outcome", "ok")],
            [new("provider", provider), new("outcome", "missing")],
            [new("provider", provider), new("outcome", "crc_mismatch")],
            [new("provider", provider), new("outcome", "error")],
        ];
    }

    /// <summary>The provider's configured name (the <c>provider</c> label).</summary>
    public string Provider { get; }

    internal KeyValuePair<string, object?>[] ProviderTag => _providerTag;

    internal KeyValuePair<string, object?>[][] OutcomeTags { get; }

    /// <summary>
    /// Decoded bytes of every article answered so far that its caller still wanted: the answer to a
    /// request abandoned meanwhile (a straggler race's loser) is skipped undecoded and not counted.
    /// </summary>
    public long FetchedBytes => Interlocked.Read(ref _fetchedBytes);

    /// <summary>
    /// Bytes read from the provider's sessions so far, as they came off the socket (after TLS): every
    /// answer whole, greetings and status lines included, what the provider itself counts as sent.
    /// </summary>
    public long ReceivedBytes => Interlocked.Read(ref _receivedBytes);

    internal void Received(long bytes) => Interlocked.Add(ref _receivedBytes, bytes);

    internal long RefusedFull => Interlocked.Read(ref _refusedFull);

    internal long BreakerTrips => Interlocked.Read(ref _breakerTrips);

    /// <summary>
    /// Answers whose status line arrived, and the Stopwatch ticks from queueing each command to its
    /// status line, summed: the dashboard divides the change over a tick into a mean latency.
    /// </summary>
    public (long Count, long Ticks) FirstByteTotals => (Interlocked.Read(ref _firstByteCount), Interlocked.Read(ref _firstByteTicks));

    /// <summary>Articles answered so far with <paramref name="outcome"/>.</summary>
    public long Articles(ArticleOutcome outcome) => Interlocked.Read(ref _articles[(int)outcome]);

    /// <summary>
    /// One BODY answer ended. Timestamps are <see cref="Stopwatch.GetTimestamp"/> values: when the
    /// command was queued on the session, when its status line had been read (0 when it never was),
    /// and now. Decoded bytes count whatever the outcome: they crossed the wire either way. Not called for
    /// an answer nobody waits for any more.
    /// </summary>
    internal void ArticleEnded(ArticleOutcome outcome, long decodedBytes, long queuedAt, long statusAt)
    {
        Interlocked.Increment(ref _articles[(int)outcome]);
        if (decodedBytes > 0)
        {
            Interlocked.Add(ref _fetchedBytes, decodedBytes);
        }

        if (queuedAt == 0)
        {
            return;
        }

        var ended = Stopwatch.GetTimestamp();
        if (statusAt != 0)
        {
            // Once per article (hundreds of KB), beside the outcome count above.
            Interlocked.Add(ref _firstByteTicks, statusAt - queuedAt);
            Interlocked.Increment(ref _firstByteCount);
            if (_firstByte.Enabled)
            {
                _firstByte.Record(Stopwatch.GetElapsedTime(queuedAt, statusAt).TotalSeconds, _providerTag);
            }
        }

        // Only complete answers: a 430 is one status line, and a broken session's time says nothing about the article.
        if (outcome is ArticleOutcome.Ok or ArticleOutcome.CrcMismatch && _duration.Enabled)
        {
            _duration.Record(Stopwatch.GetElapsedTime(queuedAt, ended).TotalSeconds, _providerTag);
        }
    }

    /// <summary>The provider greeted a new connection with 400/502 (its account is full).</summary>
    internal void RefusedAsFull() => Interlocked.Increment(ref _refusedFull);

    /// <summary>The provider's circuit breaker opened.</summary>
    internal void BreakerTripped() => Interlocked.Increment(ref _breakerTrips);
}
