using System.Buffers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// The slot entry for one segment in a stream's read window. Its bytes come from a
/// <see cref="SharedFetch"/> (this stream's or another's, for the same message-id) or straight
/// from the <see cref="SegmentCache"/>; the buffer is published into it with a compare-and-swap
/// as soon as the part header is known, and the reader takes it from there; nothing on this path
/// locks. Only the reader creates and retires tickets. News flows one way: fetch → ticket → the
/// reader's wake-up.
/// </summary>
internal sealed class SegmentTicket
{
    // Stands in for the buffer once the ticket is retired, so a late publish cannot slip in after it.
    private static readonly SegmentBuffer RetiredMarker = new(ArrayPool<byte>.Shared, null, null);

    private readonly StreamContext _context;
    private SegmentBuffer? _current;
    private Exception? _failure;
    private int _progress;
    private int _orphaned;

    public SegmentTicket(StreamContext context, int index, string messageId, int number)
    {
        _context = context;
        Index = index;
        MessageId = messageId;
        Number = number;
    }

    /// <summary>0-based segment index in the file (the slot's sequence tag).</summary>
    public int Index { get; }

    public string MessageId { get; }

    /// <summary>The NZB segment number, for messages.</summary>
    public int Number { get; }

    /// <summary>The fetch this ticket listens to (set under the cache's lock; read by the reader), or null.</summary>
    public SharedFetch? Source { get; set; }

    /// <summary>Changes whenever the published buffer, its byte count, or the failure changes.</summary>
    public int Progress => Volatile.Read(ref _progress);

    public bool IsRetired => ReferenceEquals(Volatile.Read(ref _current), RetiredMarker);

    /// <summary>True once the published buffer holds the whole verified part.</summary>
    public bool IsCompleted => Volatile.Read(ref _current) is { } current && !ReferenceEquals(current, RetiredMarker) && current.IsCompleted;

    /// <summary>True once some buffer (arriving or complete) is published.</summary>
    public bool HasBuffer => Volatile.Read(ref _current) is { } current && !ReferenceEquals(current, RetiredMarker);

    /// <summary>True while a buffer is published and its attempt has not failed (its bytes are arriving or all there).</summary>
    public bool HasHealthyBuffer => Volatile.Read(ref _current) is { } current && !ReferenceEquals(current, RetiredMarker) && !current.IsFailed;

    /// <summary>The final failure, once every attempt has failed.</summary>
    public Exception? Failure => Volatile.Read(ref _failure);

    /// <summary>Its fetch was dropped (the owner's group stopped) before the bytes arrived: the reader must fetch again.</summary>
    public bool IsOrphaned => Volatile.Read(ref _orphaned) != 0;

    // ---- the fetch's side (receive loops, the owner's group loop) ----

    /// <summary>Throws when the header contradicts this stream's layout (the article is then rejected).</summary>
    public void Validate(YencHeader header) => _context.Index.Observe(Index, header);

    /// <summary>A buffer for this segment: published unless a better one is (a cached or shared one is checked against the layout first).</summary>
    public void Offer(SegmentBuffer buffer, bool validated = true)
    {
        if (!validated && buffer.Header is { } header)
        {
            try
            {
                Validate(header);
            }
            catch (Exception error) when (error is YencException or SegmentLayoutException)
            {
                Fail(new SegmentUnavailableException(Number, MessageId, error.Message, error));
                return;
            }
        }
        Publish(buffer, force: false);
    }

    /// <summary>More bytes arrived in the published buffer (or its attempt failed).</summary>
    public void Bump()
    {
        Interlocked.Increment(ref _progress);
        _context.Wakeup.Notify(Index);
    }

    /// <summary>Every attempt failed; the reader will throw this when it reaches the segment.</summary>
    public void Fail(Exception failure)
    {
        Volatile.Write(ref _failure, failure);
        Bump();
    }

    /// <summary>The fetch went away unanswered.</summary>
    public void Orphan()
    {
        Volatile.Write(ref _orphaned, 1);
        _context.Orphaned();
        Bump();
    }

    /// <summary>The reader fetches it anew: forget the old fetch.</summary>
    public void ClearSource()
    {
        Source = null;
        Volatile.Write(ref _orphaned, 0);
    }

    /// <summary>The published buffer with a reference taken for the caller, or null if none is published.</summary>
    public SegmentBuffer? AcquireCurrent()
    {
        while (true)
        {
            var current = Volatile.Read(ref _current);
            if (current is null || ReferenceEquals(current, RetiredMarker))
            {
                return null;
            }
            if (current.TryAddReference())
            {
                return current;
            }
            // Replaced and released in between: read again.
        }
    }

    /// <summary>True while <paramref name="buffer"/> is the published one.</summary>
    public bool IsCurrent(SegmentBuffer buffer) => ReferenceEquals(Volatile.Read(ref _current), buffer);

    /// <summary>Leaves the window: drops the published buffer (a fetch still writing keeps its own reference).</summary>
    public void Retire()
    {
        var previous = Interlocked.Exchange(ref _current, RetiredMarker);
        if (previous is not null && !ReferenceEquals(previous, RetiredMarker))
        {
            previous.Release();
        }
    }

    /// <summary>A buffer that arrived before the ticket existed (the factory's first segment).</summary>
    public void Adopt(SegmentBuffer completed) => Publish(completed, force: true);

    // A buffer takes the slot when the slot is empty or holds a failed buffer, or when it is complete
    // and the one there is not (a race winner overtaking a trickling straggler).
    private void Publish(SegmentBuffer buffer, bool force)
    {
        while (true)
        {
            var current = Volatile.Read(ref _current);
            if (ReferenceEquals(current, buffer) || ReferenceEquals(current, RetiredMarker))
            {
                break;
            }
            var replace = force || current is null || current.IsFailed || (buffer.IsCompleted && !current.IsCompleted);
            if (!replace)
            {
                break;
            }
            buffer.AddReference();
            if (ReferenceEquals(Interlocked.CompareExchange(ref _current, buffer, current), current))
            {
                current?.Release();
                break;
            }
            buffer.Release();
        }
        Bump();
    }
}
