using NzbDav.Usenet.Yenc;

namespace NzbDav.Streaming;

/// <summary>
/// The segment the reader is in and the buffer it reads it from, holding a reference on that buffer.
/// When a segment's buffer is replaced after bytes were returned from the old one (a retry after a
/// failure, a race winner), the new one must repeat those bytes exactly before it is used; a buffer
/// left before its CRC was known is watched until it is, so corruption found later is still
/// reported. Reader-owned.
/// </summary>
internal sealed class ReadCursor(bool serveUnverifiedBytes)
{
    private readonly UnverifiedWatch _leftUnverified = new();
    private SegmentTicket? _ticket;
    private SegmentBuffer? _buffer;
    private int _served;

    /// <summary>The segment being read, or -1 when it must be located again.</summary>
    public int Segment { get; set; } = -1;

    /// <summary>The bound buffer's header (null when none is bound or it has not begun).</summary>
    public YencHeader? Header => _buffer?.Header;

    /// <summary>
    /// Bytes of <paramref name="buffer"/> the reader may have. Unverified bytes are served as they
    /// arrive, but a part's last byte only once its CRC checked out: a reader going through a part
    /// is therefore still on it when a bad CRC is found, and gets the good copy or an error.
    /// </summary>
    public int Readable(SegmentBuffer buffer)
    {
        if (buffer.IsCompleted)
        {
            return buffer.Size;
        }
        if (buffer.IsFailed || !serveUnverifiedBytes)
        {
            return 0;
        }
        return Math.Min(buffer.Written, buffer.Size - 1);
    }

    /// <summary>Records that the reader has had the bound buffer's bytes up to <paramref name="end"/>.</summary>
    public void Served(int end) => _served = Math.Max(_served, end);

    /// <summary>The buffer to read <paramref name="ticket"/> from, bound to the cursor, or null when none is published yet.</summary>
    /// <exception cref="SegmentUnavailableException">The replacement copy differs in bytes already returned.</exception>
    public SegmentBuffer? Bind(SegmentTicket ticket)
    {
        if (ReferenceEquals(_ticket, ticket) && _buffer is not null && ticket.IsCurrent(_buffer))
        {
            return _buffer;
        }
        var next = ticket.AcquireCurrent();
        if (!ReferenceEquals(_ticket, ticket) || _buffer is null)
        {
            Release();
            if (next is not null)
            {
                _ticket = ticket;
                _buffer = next;
            }
            return next;
        }
        if (next is null)
        {
            return null;
        }
        if (_served > 0)
        {
            if (Readable(next) < _served)
            {
                next.Release();
                return null;
            }
            if (!next.StartsWithSameBytes(_buffer, _served))
            {
                next.Release();
                throw new SegmentUnavailableException(ticket.Number, ticket.MessageId,
                    $"its first copy failed verification after {_served} bytes of it were returned, and the good copy differs in those bytes");
            }
        }
        _buffer.Release();
        _buffer = next;
        return next;
    }

    /// <summary>Lets go of the bound buffer; one the reader took unverified bytes from is watched until its CRC is known.</summary>
    public void Release()
    {
        if (_buffer is { } buffer)
        {
            if (_served > 0 && !buffer.IsCompleted && !buffer.IsFailed)
            {
                _leftUnverified.Watch(buffer, _ticket!.Number, _ticket.MessageId);
            }
            else
            {
                buffer.Release();
            }
        }
        _buffer = null;
        _ticket = null;
        _served = 0;
    }

    /// <summary>Throws for a buffer left unverified that then failed its check.</summary>
    public void ThrowIfAnyProvedCorrupt() => _leftUnverified.ThrowIfAnyProvedCorrupt();

    /// <summary>Lets go of everything (the stream is closing).</summary>
    public void Clear()
    {
        Release();
        _leftUnverified.Clear();
    }
}
