namespace NzbDav.Streaming;

/// <summary>
/// Decoded segments shared by every stream of a host, keyed by message-id: the fetches in flight
/// (a second reader of the same article subscribes to the first one's fetch instead of asking the
/// provider again) and a bounded set of completed segments. What is kept: segments a probe reads
/// (the first and last of a file, the first few after an open or a seek), segments of a file more
/// than one stream has open, and read-ahead a stream fetched but never read (kept "cold", evicted
/// first). A lone player's segments are not kept once read: keeping them would only grow memory.
/// Eviction drops the cache's reference only; a reader holding the segment keeps it. One short
/// lock per segment (never per byte, never across an await).
/// </summary>
public sealed class SegmentCache
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly Dictionary<string, int> _openFiles = new(StringComparer.Ordinal);
    private readonly LinkedList<Entry> _hot = new();
    private readonly LinkedList<Entry> _cold = new();
    private readonly Func<long> _capacity;
    private long _bytes;
    private long _hits;
    private long _hitBytes;
    private long _misses;
    private long _joins;
    private long _joinBytes;
    private long _evictions;

    /// <param name="capacity">The most decoded bytes kept, read at every insertion (0: keep nothing; in-flight fetches are still shared).</param>
    public SegmentCache(Func<long> capacity)
    {
        ArgumentNullException.ThrowIfNull(capacity);
        _capacity = capacity;
    }

    /// <summary>Decoded bytes held by the cache now.</summary>
    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>The most bytes it holds now (the capacity can follow a setting).</summary>
    public long Capacity => Math.Max(0, _capacity());

    /// <summary>Segments a stream took from the cache instead of fetching.</summary>
    public long Hits => Volatile.Read(ref _hits);

    /// <summary>Bytes of those segments.</summary>
    public long HitBytes => Volatile.Read(ref _hitBytes);

    /// <summary>Segments a stream had to fetch (nobody held or was fetching them).</summary>
    public long Misses => Volatile.Read(ref _misses);

    /// <summary>Segments a stream took from another stream's fetch in flight.</summary>
    public long SharedFetches => Volatile.Read(ref _joins);

    /// <summary>Bytes of those segments.</summary>
    public long SharedFetchBytes => Volatile.Read(ref _joinBytes);

    /// <summary>Message-ids the cache knows now (kept, in flight, or held by a window): none once every stream closed and <see cref="Clear"/> ran.</summary>
    internal int Entries
    {
        get
        {
            lock (_gate)
            {
                return _entries.Count;
            }
        }
    }

    /// <summary>Segments dropped to stay within the capacity.</summary>
    public long Evictions => Volatile.Read(ref _evictions);

    /// <summary>A stream over the file whose first message-id is <paramref name="fileKey"/> opened; returns how many are open now.</summary>
    internal int OpenFile(string fileKey)
    {
        lock (_gate)
        {
            _openFiles.TryGetValue(fileKey, out var open);
            _openFiles[fileKey] = ++open;
            return open;
        }
    }

    internal void CloseFile(string fileKey)
    {
        lock (_gate)
        {
            if (_openFiles.TryGetValue(fileKey, out var open))
            {
                if (open <= 1)
                    _openFiles.Remove(fileKey);
                else
                    _openFiles[fileKey] = open - 1;
            }
        }
    }

    /// <summary>
    /// Gives <paramref name="ticket"/> its segment: from the cache (published at once), from another
    /// stream's fetch in flight (subscribed), or through a new fetch the caller must submit (returned).
    /// </summary>
    internal SharedFetch? Attach(SegmentTicket ticket, string fileKey, bool probe, Func<SharedFetch> create)
    {
        SegmentBuffer? found = null;
        SharedFetch? created = null;
        List<SegmentBuffer>? evicted = null;
        lock (_gate)
        {
            _entries.TryGetValue(ticket.MessageId, out var entry);
            if (entry?.Buffer is { } buffer)
            {
                buffer.AddReference();
                found = buffer;
                Promote(entry);
                _hits++;
                _hitBytes += entry.Size;
            }
            else if (entry?.Fetch is { } fetch)
            {
                fetch.Keep = true; // two readers want it: worth keeping once it arrives
                found = fetch.Subscribe(ticket);
                _joins++;
                _joinBytes += fetch.ExpectedSize;
            }
            else if (entry?.Held is { } held && held.TryAddReference())
            {
                // Another stream's window holds it: share it, and keep it now two readers want it.
                found = held;
                Keep(entry, held, ref evicted);
                _hits++;
                _hitBytes += held.Size;
            }
            else
            {
                created = create();
                created.Keep = probe || (_openFiles.TryGetValue(fileKey, out var open) && open > 1);
                created.Probe = probe;
                found = created.Subscribe(ticket);
                _entries[ticket.MessageId] = new Entry(ticket.MessageId) { Fetch = created };
                _misses++;
            }
        }
        ReleaseAll(evicted);
        if (found is not null)
        {
            // Another stream's segment: checked against this stream's layout before it is used.
            ticket.Offer(found);
            found.Release();
        }
        return created;
    }

    /// <summary>A completed segment the cache holds, with a reference for the caller (counted as a hit), or null.</summary>
    internal SegmentBuffer? TryTake(string messageId)
    {
        lock (_gate)
        {
            if (!_entries.TryGetValue(messageId, out var entry) || entry.Buffer is not { } buffer)
            {
                // Held by a window only: taken, not kept (the taker's window holds it from now on).
                return entry?.Held is { } held && held.TryAddReference() ? Hit(held) : null;
            }
            buffer.AddReference();
            Promote(entry);
            _hits++;
            _hitBytes += entry.Size;
            return buffer;
        }
    }

    private SegmentBuffer Hit(SegmentBuffer buffer)
    {
        _hits++;
        _hitBytes += buffer.Size;
        return buffer;
    }

    /// <summary>
    /// A window let go of a segment it read: if the cache only knew it through that window, it
    /// forgets it (the buffer goes back to the pool with the window's reference).
    /// </summary>
    internal void Released(string messageId, SegmentBuffer buffer)
    {
        lock (_gate)
        {
            if (_entries.TryGetValue(messageId, out var entry) && ReferenceEquals(entry.Held, buffer))
                _entries.Remove(messageId);
        }
    }

    /// <summary>The ticket left its window: it stops listening; true when its fetch is now wanted by nobody.</summary>
    internal bool Detach(SegmentTicket ticket, SharedFetch fetch)
    {
        List<SegmentBuffer>? evicted = null;
        var withdraw = false;
        lock (_gate)
        {
            var published = fetch.Published;
            var last = fetch.Unsubscribe(ticket);
            if (!_entries.TryGetValue(fetch.MessageId, out var entry))
            {
                return last;
            }
            if (ReferenceEquals(entry.Fetch, fetch))
            {
                if (IsAnsweredFetch(entry, out _))
                {
                    // Answered, not yet settled: settle it now rather than lose it with its last reader.
                    SettleEntry(entry, fetch, ref evicted);
                }
                else if (last)
                {
                    _entries.Remove(fetch.MessageId);
                    withdraw = true;
                }
            }
            else if (!fetch.HasSubscribers && published is not null && ReferenceEquals(entry.Held, published))
            {
                // The last window that held the answer through this fetch let go of it (the
                // answer may have been settled after that window's reader already released it).
                _entries.Remove(fetch.MessageId);
            }
        }
        ReleaseAll(evicted);
        return withdraw;
    }

    /// <summary>
    /// On the owner group's loop, once the fetch is answered: the cache keeps the answer (or holds
    /// or forgets it, see <see cref="SettleEntry"/>) unless a reader's side got there first; then the
    /// fetch ends.
    /// </summary>
    internal void Settle(SharedFetch fetch)
    {
        List<SegmentBuffer>? evicted = null;
        lock (_gate)
        {
            if (_entries.TryGetValue(fetch.MessageId, out var entry) && ReferenceEquals(entry.Fetch, fetch))
                SettleEntry(entry, fetch, ref evicted);
            fetch.End();
        }
        ReleaseAll(evicted);
    }

    /// <summary>A fetch ended without a buffer (missing, failed, cancelled): nobody may subscribe to it any more.</summary>
    internal SegmentTicket[] Forget(SharedFetch fetch)
    {
        lock (_gate)
        {
            if (_entries.TryGetValue(fetch.MessageId, out var entry) && ReferenceEquals(entry.Fetch, fetch))
                _entries.Remove(fetch.MessageId);
            return fetch.End();
        }
    }

    /// <summary>
    /// Offers a completed segment nobody else keeps: read-ahead a stream leaves unread (cold,
    /// evicted first), or the first segment an open fetched (hot).
    /// </summary>
    internal void Offer(string messageId, SegmentBuffer buffer, bool cold)
    {
        if (!buffer.IsCompleted)
            return;
        List<SegmentBuffer>? evicted = null;
        lock (_gate)
        {
            OfferLocked(messageId, buffer, cold, ref evicted);
        }
        ReleaseAll(evicted);
    }

    private void OfferLocked(string messageId, SegmentBuffer buffer, bool cold, ref List<SegmentBuffer>? evicted)
    {
        if (_entries.TryGetValue(messageId, out var existing) && IsAnsweredFetch(existing, out var answered) && ReferenceEquals(answered.Published, buffer))
        {
            // This window's read-ahead came in but its fetch is not settled yet: settle it first.
            SettleEntry(existing, answered, ref evicted);
            _entries.TryGetValue(messageId, out existing);
        }
        if (existing is not null && (existing.Buffer is not null || existing.Fetch is not null))
            return;
        if (!MakeRoom(buffer.Size, ref evicted) || !buffer.TryAddReference())
        {
            if (existing is not null && ReferenceEquals(existing.Held, buffer))
                _entries.Remove(messageId);
            return;
        }
        var entry = new Entry(messageId) { Buffer = buffer, Size = buffer.Size };
        entry.Node = cold ? _cold.AddFirst(entry) : _hot.AddFirst(entry);
        _entries[messageId] = entry;
        _bytes += entry.Size;
    }

    /// <summary>Drops every kept segment (tests, shutdown).</summary>
    public void Clear()
    {
        List<SegmentBuffer> released = [];
        lock (_gate)
        {
            foreach (var entry in _hot.Concat(_cold).ToList())
            {
                released.Add(entry.Buffer!);
                Remove(entry);
            }
        }
        ReleaseAll(released);
    }

    /// <summary>
    /// Under the lock, once <paramref name="fetch"/>'s answer is in: the entry stops pointing at the
    /// fetch and keeps the completed buffer (a probe's, or wanted by two readers, if it fits), or
    /// holds it while a window does (a second player starting moments later reads the first one's
    /// read-ahead instead of fetching again), or is forgotten. Whoever sees the answer first does
    /// this: the owner group's loop as it settles the request, or a reader letting go of the
    /// segment before that, so a window never drops an answer the cache wanted.
    /// </summary>
    private void SettleEntry(Entry entry, SharedFetch fetch, ref List<SegmentBuffer>? evicted)
    {
        entry.Fetch = null;
        var buffer = fetch.Published is { IsCompleted: true } completed ? completed : null;
        if (buffer is not null && fetch.Keep && Keep(entry, buffer, ref evicted))
            return;
        if (buffer is not null && fetch.HasSubscribers)
            entry.Held = buffer;
        else
            _entries.Remove(fetch.MessageId);
    }

    /// <summary>Under the lock: the entry's fetch has its answer, which no one settled yet.</summary>
    private static bool IsAnsweredFetch(Entry entry, out SharedFetch fetch)
    {
        fetch = entry.Fetch!;
        return fetch is not null && fetch.Published is { IsCompleted: true };
    }

    /// <summary>Takes a cache reference on <paramref name="buffer"/> for <paramref name="entry"/> (hot) if it fits.</summary>
    private bool Keep(Entry entry, SegmentBuffer buffer, ref List<SegmentBuffer>? evicted)
    {
        if (!MakeRoom(buffer.Size, ref evicted) || !buffer.TryAddReference())
            return false;
        entry.Held = null;
        entry.Buffer = buffer;
        entry.Size = buffer.Size;
        entry.Node = _hot.AddFirst(entry);
        _bytes += entry.Size;
        return true;
    }

    private void Promote(Entry entry)
    {
        // A second use: it is worth keeping longer than anything used once.
        entry.Node!.List!.Remove(entry.Node);
        _hot.AddFirst(entry.Node);
    }

    /// <summary>Evicts (cold first, then the least recently used) until <paramref name="size"/> more bytes fit; false when they never can.</summary>
    private bool MakeRoom(int size, ref List<SegmentBuffer>? evicted)
    {
        var capacity = Math.Max(0, _capacity());
        if (size > capacity)
            return false;
        while (_bytes + size > capacity)
        {
            var victim = _cold.Last?.Value ?? _hot.Last?.Value;
            if (victim is null)
                return false;
            (evicted ??= []).Add(victim.Buffer!);
            Remove(victim);
            _evictions++;
        }
        return true;
    }

    private void Remove(Entry entry)
    {
        entry.Node!.List!.Remove(entry.Node);
        entry.Node = null;
        _entries.Remove(entry.MessageId);
        _bytes -= entry.Size;
    }

    private static void ReleaseAll(List<SegmentBuffer>? buffers)
    {
        if (buffers is null)
            return;
        foreach (var buffer in buffers)
            buffer.Release();
    }

    private sealed class Entry(string messageId)
    {
        public string MessageId { get; } = messageId;

        public SegmentBuffer? Buffer { get; set; }

        public SharedFetch? Fetch { get; set; }

        /// <summary>A completed buffer a window holds, known without a reference (it may have been released since).</summary>
        public SegmentBuffer? Held { get; set; }

        public LinkedListNode<Entry>? Node { get; set; }

        public int Size { get; set; }
    }
}
