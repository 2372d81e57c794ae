using System.Buffers;
using NzbDav.Streaming.Disk;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// One article on its way, for every ticket that wants it: the fetch engine's request (submitted to
/// the fetch group of the stream that asked first, its owner) and the one buffer its readers read
/// from. It stays wanted while any subscriber is left, so a reader that leaves does not take the
/// fetch from under one still waiting. If the owner's group stops before the answer, the
/// subscribers are told (orphaned) and fetch it themselves.
/// </summary>
/// <remarks>
/// The receive loops only publish: an attempt's buffer goes into <see cref="Published"/> with one
/// compare-and-swap, and every subscriber's reader is signalled. What a buffer means for a reader
/// (its header checked against that reader's layout, the buffer adopted into its ticket) is done by
/// the reader (<see cref="SegmentTicket.Refresh"/>), and what it means for the cache once the fetch
/// is answered, on the owner group's loop (<see cref="OnFound"/>). Subscriptions change under the
/// cache's lock; the receive loops read the subscriber array lock-free.
/// </remarks>
internal sealed class SharedFetch : ArticleRequest, ISegmentBufferObserver
{
    // Stands in for the buffer once the fetch let go of it, so a late publish cannot slip in after.
    private static readonly SegmentBuffer Released = new(ArrayPool<byte>.Shared, null);

    private readonly SegmentCache _cache;
    private readonly ArrayPool<byte> _pool;
    private readonly StreamStatistics _statistics;
    private readonly StreamingMetrics? _metrics;
    private readonly DiskSegmentStore? _disk;
    private SegmentTicket[] _subscribers = [];
    private int _loading;
    private SegmentBuffer? _published;
    private int _ended;

    public SharedFetch(SegmentCache cache, StreamContext owner, ISegmentFetcher fetcher, string messageId, long order, long expectedSize)
        : base(messageId, order)
    {
        _cache = cache;
        _pool = owner.Pool;
        _statistics = owner.Statistics;
        _metrics = owner.Metrics;
        _disk = owner.Disk;
        Owner = fetcher;
        ExpectedSize = expectedSize;
    }

    /// <summary>The fetcher of the stream that submitted it: the only one that may withdraw it or race it.</summary>
    public ISegmentFetcher Owner { get; }

    /// <summary>The part size the layout expects (for counting shared bytes before the header is known).</summary>
    public long ExpectedSize { get; }

    /// <summary>Keep the segment in the cache once it arrives (a probe's, or wanted by two readers). Under the cache's lock.</summary>
    public bool Keep { get; set; }

    /// <summary>A probe's segment (a file's head or tail, what a scanner read): kept on disk longer than playback's.</summary>
    public bool Probe { get; set; }

    /// <summary>
    /// The buffer to read from now (the first attempt to begin, one replacing a failed attempt, or a
    /// completed one overtaking a trickling straggler), or null. It may be replaced and released at
    /// any moment: take it with <see cref="SegmentBuffer.TryAddReference"/>.
    /// </summary>
    public SegmentBuffer? Published
    {
        get
        {
            var published = Volatile.Read(ref _published);
            return ReferenceEquals(published, Released) ? null : published;
        }
    }

    /// <summary>The published buffer with a reference taken for the caller, or null.</summary>
    public SegmentBuffer? AcquirePublished()
    {
        while (Published is { } published)
        {
            if (published.TryAddReference())
                return published;
        }
        return null;
    }

    // ---- the cache's side, under its lock ----

    public bool HasSubscribers => _subscribers.Length > 0;

    /// <summary>Adds a subscriber; returns the buffer published so far with a reference for the caller, or null.</summary>
    public SegmentBuffer? Subscribe(SegmentTicket ticket)
    {
        ticket.Source = this;
        var subscribers = _subscribers;
        var grown = new SegmentTicket[subscribers.Length + 1];
        subscribers.CopyTo(grown, 0);
        grown[^1] = ticket;
        Volatile.Write(ref _subscribers, grown);
        return AcquirePublished();
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
        if (shrunk.Length > 0)
            return false;
        if (_ended != 0)
        {
            // Answered, and the last reader that could still take the buffer from here has left.
            LetGo();
            return false;
        }
        return true;
    }

    /// <summary>
    /// The fetch is over: nobody subscribes any more (the cache forgot it). The published buffer stays
    /// for the subscribers' readers to take until the last of them leaves; returns who is subscribed.
    /// </summary>
    public SegmentTicket[] End()
    {
        _ended = 1;
        var subscribers = _subscribers;
        if (subscribers.Length == 0)
            LetGo();
        return subscribers;
    }

    private void LetGo()
    {
        var published = Interlocked.Exchange(ref _published, Released);
        if (published is not null && !ReferenceEquals(published, Released))
            published.Release();
    }

    // ---- the fetch engine's side ----

    // Not while the disk is being read: an expedite from a joining stream must not send it to a provider too.
    protected override bool IsWanted => Volatile.Read(ref _ended) == 0 && Volatile.Read(ref _loading) == 0 && Volatile.Read(ref _subscribers).Length > 0;

    protected override IYencBodyTarget CreateTarget(string provider) => new SegmentBuffer(_pool, this, _statistics, provider);

    /// <summary>The attempt's own reference goes; what it received is counted once, here (a completed part was counted as it completed).</summary>
    protected override void OnAttemptEnded(IYencBodyTarget target, bool succeeded)
    {
        var buffer = (SegmentBuffer)target;
        if (!buffer.IsCompleted)
        {
            buffer.MarkFailed();
            _statistics.AddFetched(buffer.Written);
        }
        _metrics?.Fetched(buffer.Written);
        buffer.Release();
    }

    /// <summary>
    /// On the owner group's loop: the answer goes to the disk cache (queued, never waited for), the
    /// memory cache keeps (or forgets) it; the fetch itself is over.
    /// </summary>
    protected override void OnFound(YencHeader? header)
    {
        if (_disk is { } disk && AcquirePublished() is { } published)
        {
            if (published.IsCompleted && published.Provider is not null && published.Provider != DiskSegmentStore.ProviderName)
                disk.Write(MessageId, published, Probe ? DiskSegmentKind.Probe : DiskSegmentKind.Playback);
            published.Release();
        }
        _cache.Settle(this);
    }

    /// <summary>
    /// Looks for the segment on disk before any provider is asked (the index said it is there): a
    /// copy whose CRC matched is published to the subscribers as a provider's answer would be and
    /// the fetch settles; otherwise the fetch goes to its owner's group. Never throws.
    /// </summary>
    public void LoadFrom(DiskSegmentStore disk)
    {
        Volatile.Write(ref _loading, 1);
        _ = LoadAsync(disk);
    }

    private async Task LoadAsync(DiskSegmentStore disk)
    {
        SegmentBuffer? found = null;
        try
        {
            found = await disk.ReadAsync(MessageId, _pool, CancellationToken.None).ConfigureAwait(false);
        }
#pragma warning disable CA1031 // whatever went wrong with the disk, the providers still have the article
        catch (Exception)
#pragma warning restore CA1031
        {
            found = null;
        }
        Volatile.Write(ref _loading, 0);
        if (found is null)
        {
            Owner.Submit(this);
            Owner.Wake();
            return;
        }
        _statistics.AddFromDisk(found.Size);
        _metrics?.FromDisk(found.Size);
        Publish(found);
        Signal();
        found.Release();
        _cache.Settle(this);
    }

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

    // ---- receive loops: publish, signal, nothing else ----

    void ISegmentBufferObserver.OnBegin(SegmentBuffer buffer)
    {
        Publish(buffer);
        Signal();
    }

    void ISegmentBufferObserver.OnData(SegmentBuffer buffer) => Signal();

    void ISegmentBufferObserver.OnCompleted(SegmentBuffer buffer)
    {
        Publish(buffer);
        Signal();
    }

    void ISegmentBufferObserver.OnFailed(SegmentBuffer buffer) => Signal();

    // A buffer takes the place when it is empty or holds a failed buffer, or when it is complete and
    // the one there is not (a race winner overtaking a trickling straggler). The attempt holds its
    // own reference throughout, so taking one more here cannot fail.
    private void Publish(SegmentBuffer buffer)
    {
        while (true)
        {
            var current = Volatile.Read(ref _published);
            if (ReferenceEquals(current, buffer) || ReferenceEquals(current, Released))
                return;
            if (current is not null && !current.IsFailed && !(buffer.IsCompleted && !current.IsCompleted))
                return;
            buffer.AddReference();
            if (ReferenceEquals(Interlocked.CompareExchange(ref _published, buffer, current), current))
            {
                current?.Release();
                return;
            }
            buffer.Release();
        }
    }

    private void Signal()
    {
        foreach (var ticket in Volatile.Read(ref _subscribers))
            ticket.Bump();
    }
}
