using System.Buffers;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// One article on its way, for every ticket that wants it: the fetch engine's request (submitted to
/// the fetch group of the stream that asked first, its owner) and the fan-out of what arrives to the
/// subscribed tickets, whichever stream they belong to. It stays wanted while any subscriber is left,
/// so a reader that leaves does not take the fetch from under one still waiting. If the owner's
/// group stops before the answer, the subscribers are told (orphaned) and fetch it themselves.
/// Subscriptions change under the cache's lock; arriving bytes read the subscriber list lock-free.
/// </summary>
internal sealed class SharedFetch : ArticleRequest, ISegmentBufferObserver
{
    private readonly SegmentCache _cache;
    private readonly ArrayPool<byte> _pool;
    private readonly StreamStatistics _statistics;
    private readonly StreamingMetrics? _metrics;
    private SegmentTicket[] _subscribers = [];
    private SegmentBuffer? _published;
    private int _ended;

    public SharedFetch(SegmentCache cache, StreamContext owner, ISegmentFetcher fetcher, string messageId, long order, long expectedSize)
        : base(messageId, order)
    {
        _cache = cache;
        _pool = owner.Pool;
        _statistics = owner.Statistics;
        _metrics = owner.Metrics;
        Owner = fetcher;
        ExpectedSize = expectedSize;
    }

    /// <summary>The fetcher of the stream that submitted it: the only one that may withdraw it or race it.</summary>
    public ISegmentFetcher Owner { get; }

    /// <summary>The part size the layout expects (for counting shared bytes before the header is known).</summary>
    public long ExpectedSize { get; }

    /// <summary>Keep the segment in the cache once it arrives (a probe's, or wanted by two readers). Under the cache's lock.</summary>
    public bool Keep { get; set; }

    // ---- the cache's side, under its lock ----

    /// <summary>Adds a subscriber; returns the buffer published so far with a reference for the caller, or null.</summary>
    public SegmentBuffer? Subscribe(SegmentTicket ticket)
    {
        ticket.Source = this;
        var subscribers = _subscribers;
        var grown = new SegmentTicket[subscribers.Length + 1];
        subscribers.CopyTo(grown, 0);
        grown[^1] = ticket;
        Volatile.Write(ref _subscribers, grown);
        var published = _published;
        published?.AddReference();
        return published;
    }

    /// <summary>Removes a subscriber; true when it was the last one of a fetch still running.</summary>
    public bool Unsubscribe(SegmentTicket ticket)
    {
        var subscribers = _subscribers;
        var at = Array.IndexOf(subscribers, ticket);
        if (at < 0)
            return false;
        var shrunk = new SegmentTicket[subscribers.Length - 1];
        Array.Copy(subscribers, shrunk, at);
        Array.Copy(subscribers, at + 1, shrunk, at, shrunk.Length - at);
        Volatile.Write(ref _subscribers, shrunk);
        return shrunk.Length == 0 && _ended == 0;
    }

    /// <summary>
    /// An attempt's buffer is the one to read from now (the first to begin, one replacing a failed
    /// attempt, or a completed one overtaking a trickling straggler); returns the subscribers.
    /// </summary>
    public SegmentTicket[] SetPublished(SegmentBuffer buffer, bool completed)
    {
        var current = _published;
        if (_ended == 0 && !ReferenceEquals(current, buffer) && (current is null || current.IsFailed || (completed && !current.IsCompleted)))
        {
            buffer.AddReference();
            _published = buffer;
            current?.Release();
        }
        return _subscribers;
    }

    /// <summary>The fetch is over: nobody subscribes any more; returns who was subscribed.</summary>
    public SegmentTicket[] End()
    {
        _ended = 1;
        var subscribers = _subscribers;
        Volatile.Write(ref _subscribers, []);
        _published?.Release();
        _published = null;
        return subscribers;
    }

    // ---- the fetch engine's side ----

    protected override bool IsWanted => Volatile.Read(ref _ended) == 0 && Volatile.Read(ref _subscribers).Length > 0;

    protected override IYencBodyTarget CreateTarget() => new SegmentBuffer(_pool, this, _statistics);

    /// <summary>The attempt's own reference goes; what it received is counted once, here.</summary>
    protected override void OnAttemptEnded(IYencBodyTarget target, bool succeeded)
    {
        var buffer = (SegmentBuffer)target;
        if (!buffer.IsCompleted)
            buffer.MarkFailed();
        _metrics?.Fetched(buffer.Written);
        buffer.Release();
    }

    /// <summary>The winning buffer was handed out as it arrived; now nobody needs the fetch itself.</summary>
    protected override void OnFound(YencHeader? header) => _cache.Forget(this);

    protected override void OnMissing(ArticleMissingException error)
    {
        foreach (var ticket in _cache.Forget(this))
            ticket.Fail(new SegmentUnavailableException(ticket.Number, MessageId, $"missing (430) on every provider ({string.Join(", ", error.ProvidersTried)})", error));
    }

    protected override void OnFailed(Exception error)
    {
        foreach (var ticket in _cache.Forget(this))
            ticket.Fail(error as SegmentUnavailableException ?? new SegmentUnavailableException(ticket.Number, MessageId, error.Message, error));
    }

    /// <summary>The owner's group stopped first: whoever still waits fetches it on its own.</summary>
    protected override void OnCancelled()
    {
        foreach (var ticket in _cache.Forget(this))
            ticket.Orphan();
    }

    // ---- receive loops ----

    void ISegmentBufferObserver.OnBegin(SegmentBuffer buffer)
    {
        // Throwing here rejects the article (a header that contradicts a reader's layout): the
        // engine fetches it from elsewhere.
        var header = buffer.Header!;
        foreach (var ticket in Volatile.Read(ref _subscribers))
            ticket.Validate(header);
        foreach (var ticket in _cache.Publish(this, buffer, completed: false))
            ticket.Offer(buffer);
    }

    void ISegmentBufferObserver.OnData(SegmentBuffer buffer)
    {
        foreach (var ticket in Volatile.Read(ref _subscribers))
            ticket.Bump();
    }

    void ISegmentBufferObserver.OnCompleted(SegmentBuffer buffer)
    {
        foreach (var ticket in _cache.Publish(this, buffer, completed: true))
            ticket.Offer(buffer);
    }

    void ISegmentBufferObserver.OnFailed(SegmentBuffer buffer)
    {
        foreach (var ticket in Volatile.Read(ref _subscribers))
            ticket.Bump();
    }
}
