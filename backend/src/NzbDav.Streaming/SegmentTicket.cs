using System.Buffers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// The slot entry for one segment in a stream's read window. Its bytes come from a
/// <see cref="SharedFetch"/> (this stream's or another's, for the same message-id) or straight
/// from the <see cref="SegmentCache"/>. The receive loop publishes a buffer into the fetch as soon as
/// its part header is known and signals; the reader takes it into the ticket when it next looks
/// (<see cref="Refresh"/>), checking it against its own layout first; nothing on this path locks.
/// Only the reader creates, fills and retires tickets. News flows one way: fetch → signal → reader.
/// </summary>
internal sealed class SegmentTicket
{
    // Stands in for the buffer once the ticket is retired, so a late publish cannot slip in after it.
    private static readonly SegmentBuffer RetiredMarker = new(ArrayPool<byte>.Shared, null);

    private readonly StreamContext _context;
    private SegmentBuffer? _current;
    private Exception? _failure;
    private int _progress;
    private int _orphaned;
    private SegmentBuffer? _refused;
    private List<(string Provider, Exception Error)>? _refusals;

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
    public bool IsCompleted => Current() is { IsCompleted: true };

    /// <summary>True once some buffer (arriving or complete) is published.</summary>
    public bool HasBuffer => Current() is not null;

    /// <summary>True while a buffer is published and its attempt has not failed (its bytes are arriving or all there).</summary>
    public bool HasHealthyBuffer => Current() is { IsFailed: false };

    /// <summary>The final failure, once every attempt has failed.</summary>
    public Exception? Failure => Volatile.Read(ref _failure);

    /// <summary>Its fetch was dropped (the owner's group stopped) before the bytes arrived: the reader must fetch again.</summary>
    public bool IsOrphaned => Volatile.Read(ref _orphaned) != 0;

    /// <summary>The reader refused what its fetch delivered (a part header contradicting the layout): it must fetch again elsewhere.</summary>
    public bool IsRefused => _refused is not null;

    /// <summary>Providers whose copies this ticket refused, and why: a fetch again rules them out.</summary>
    public IReadOnlyList<(string Provider, Exception Error)> Refusals => _refusals ?? [];

    // ---- the fetch's side (the owner's group loop; receive loops only call Bump) ----

    /// <summary>Reader-only: a cached or shared buffer for this segment, checked against the layout, then published unless a better one is.</summary>
    public void Offer(SegmentBuffer buffer)
    {
        if (buffer.Header is { } header && Check(header) is { } error)
        {
            Fail(new SegmentUnavailableException(Number, MessageId, error.Message, error));
            return;
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
        _refused = null;
        Volatile.Write(ref _orphaned, 0);
    }

    // ---- the reader's side ----

    /// <summary>
    /// Takes up what the fetch published since the reader last looked: a buffer new to the ticket is
    /// checked against this stream's layout first (which also teaches an irregular layout where the
    /// part lies). One that contradicts the layout is refused, and the reader fetches the segment
    /// again from the other providers (<see cref="IsRefused"/>).
    /// </summary>
    public void Refresh()
    {
        if (Source?.Published is not { } published || ReferenceEquals(published, _refused))
        {
            return;
        }
        var current = Volatile.Read(ref _current);
        if (ReferenceEquals(published, current) || ReferenceEquals(current, RetiredMarker) || !Replaces(published, current))
        {
            return;
        }
        if (!published.TryAddReference())
        {
            return; // replaced and released meanwhile: its successor is found on the next look
        }
        try
        {
            if (published.Header is { } header && Check(header) is { } error)
            {
                if (published.Provider is not { } provider)
                {
                    Fail(new SegmentUnavailableException(Number, MessageId, error.Message, error));
                    return;
                }
                _refused = published;
                (_refusals ??= []).Add((provider, error));
                return;
            }
            Publish(published, force: false, signal: false);
        }
        finally
        {
            published.Release();
        }
    }

    /// <summary>The published buffer with a reference taken for the caller, or null if none is published.</summary>
    public SegmentBuffer? AcquireCurrent()
    {
        Refresh();
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
    public bool IsCurrent(SegmentBuffer buffer)
    {
        Refresh();
        return ReferenceEquals(Volatile.Read(ref _current), buffer);
    }

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
    private static bool Replaces(SegmentBuffer buffer, SegmentBuffer? current) =>
        current is null || current.IsFailed || (buffer.IsCompleted && !current.IsCompleted);

    /// <summary>Why the header contradicts this stream's layout, or null when it fits.</summary>
    private Exception? Check(YencHeader header)
    {
        try
        {
            _context.Index.Observe(Index, header);
            return null;
        }
        catch (Exception error) when (error is YencException or SegmentLayoutException)
        {
            return error;
        }
    }

    private SegmentBuffer? Current()
    {
        Refresh();
        var current = Volatile.Read(ref _current);
        return ReferenceEquals(current, RetiredMarker) ? null : current;
    }

    private void Publish(SegmentBuffer buffer, bool force, bool signal = true)
    {
        while (true)
        {
            var current = Volatile.Read(ref _current);
            if (ReferenceEquals(current, buffer) || ReferenceEquals(current, RetiredMarker))
            {
                break;
            }
            if (!force && !Replaces(buffer, current))
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
        if (signal)
        {
            Bump();
        }
    }
}
