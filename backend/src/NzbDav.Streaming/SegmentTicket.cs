using System.Buffers;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// The slot entry for one segment in the read window, and the fetch engine's request for it. Fetch
/// attempts publish their <see cref="SegmentBuffer"/> into it with a compare-and-swap as soon as the
/// part header is known, and the reader takes it from there; nothing on this path locks. Only the
/// reader creates and retires tickets. News flows one way: buffer → ticket → the reader's wake-up.
/// </summary>
internal sealed class SegmentTicket : ArticleRequest, ISegmentBufferObserver
{
    // Stands in for the buffer once the ticket is retired, so a late publish cannot slip in after it.
    private static readonly SegmentBuffer RetiredMarker = new(ArrayPool<byte>.Shared, null, null);

    private readonly StreamContext _context;
    private SegmentBuffer? _current;
    private Exception? _failure;
    private int _progress;

    public SegmentTicket(StreamContext context, int index, string messageId, int number)
        : base(messageId, index)
    {
        _context = context;
        Index = index;
        Number = number;
    }

    /// <summary>0-based segment index in the file (the slot's sequence tag).</summary>
    public int Index { get; }

    /// <summary>The NZB segment number, for messages.</summary>
    public int Number { get; }

    /// <summary>Changes whenever the published buffer, its byte count, or the failure changes.</summary>
    public int Progress => Volatile.Read(ref _progress);

    public bool IsRetired => ReferenceEquals(Volatile.Read(ref _current), RetiredMarker);

    /// <summary>True once the published buffer holds the whole verified part.</summary>
    public bool IsCompleted => Volatile.Read(ref _current) is { } current && !ReferenceEquals(current, RetiredMarker) && current.IsCompleted;

    /// <summary>The final failure, once every attempt has failed.</summary>
    public Exception? Failure => Volatile.Read(ref _failure);

    // ---- the fetch engine's side ----

    protected override bool IsWanted => !IsRetired && !IsCompleted && Failure is null;

    protected override IYencBodyTarget CreateTarget() => new SegmentBuffer(_context.Pool, this, _context.Statistics);

    /// <summary>The attempt's own reference goes; a published buffer lives on in the slot.</summary>
    protected override void OnAttemptEnded(IYencBodyTarget target, bool succeeded)
    {
        var buffer = (SegmentBuffer)target;
        if (!buffer.IsCompleted)
        {
            buffer.MarkFailed();
        }
        buffer.Release();
    }

    /// <summary>Nothing to do: the winning buffer published itself as it arrived.</summary>
    protected override void OnFound(YencHeader? header)
    {
    }

    protected override void OnMissing(ArticleMissingException error) =>
        Fail(new SegmentUnavailableException(Number, MessageId, $"missing (430) on every provider ({string.Join(", ", error.ProvidersTried)})", error));

    protected override void OnFailed(Exception error) =>
        Fail(error as SegmentUnavailableException ?? new SegmentUnavailableException(Number, MessageId, error.Message, error));

    // ---- reader side ----

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

    /// <summary>Every attempt failed; the reader will throw this when it reaches the segment.</summary>
    public void Fail(Exception failure)
    {
        Volatile.Write(ref _failure, failure);
        Bump();
    }

    /// <summary>A buffer that arrived before the ticket existed (the factory's first segment).</summary>
    public void Adopt(SegmentBuffer completed) => Publish(completed, force: true);

    // ---- fetch side (receive loops) ----

    void ISegmentBufferObserver.OnBegin(SegmentBuffer buffer)
    {
        // Throwing here rejects the article: the engine then fetches it from elsewhere.
        _context.Index.Observe(Index, buffer.Header!);
        Publish(buffer, force: false);
    }

    void ISegmentBufferObserver.OnData(SegmentBuffer buffer) => Bump();

    void ISegmentBufferObserver.OnCompleted(SegmentBuffer buffer) => Publish(buffer, force: false);

    void ISegmentBufferObserver.OnFailed(SegmentBuffer buffer) => Bump();

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

    private void Bump()
    {
        Interlocked.Increment(ref _progress);
        _context.Wakeup.Notify(Index);
    }
}
