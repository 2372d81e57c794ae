using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace NzbDav.Streaming;

// The reader: find the segment holding the position, copy what has arrived, wait for the rest.
public sealed partial class BufferedSegmentStream
{
    private int _segment = -1;
    private SegmentTicket? _cursorTicket;
    private SegmentBuffer? _cursorBuffer;
    private int _cursorServed;
    private readonly UnverifiedWatch _leftUnverified = new();
    private ExceptionDispatchInfo? _deferredError;
    private int _copiedBeforeError;
    private long _waitedTicks;

    private async ValueTask<int> ReadCoreAsync(Memory<byte> destination, CancellationToken cancellationToken)
    {
        EnterReader();
        try
        {
            if (destination.IsEmpty || _position >= Length)
            {
                return 0;
            }
            cancellationToken.ThrowIfCancellationRequested();
            if (_deferredError is { } deferred)
            {
                _deferredError = null;
                deferred.Throw();
            }
            _leftUnverified.ThrowIfAnyProvedCorrupt();
            OnReadStarted();
            _waitedTicks = 0;
            var copied = 0;
            try
            {
                copied = await CopyAsync(destination, cancellationToken).ConfigureAwait(false);
            }
            catch (IOException error) when (_copiedBeforeError > 0)
            {
                // Bytes were already copied and the position moved past them: hand them over now
                // and report the failure on the next read.
                _deferredError = ExceptionDispatchInfo.Capture(error);
                copied = _copiedBeforeError;
            }
            Statistics.AddRead(copied);
            if (_metrics is not null)
            {
                CountRead(_metrics, copied);
            }
            return copied;
        }
        finally
        {
            ExitReader();
        }
    }

    private async ValueTask<int> CopyAsync(Memory<byte> destination, CancellationToken cancellationToken)
    {
        var copied = 0;
        var relocations = 0;
        _copiedBeforeError = 0;
        while (copied < destination.Length && _position < Length)
        {
            ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
            if (_segment < 0 || _segment >= _index.Count)
            {
                if (++relocations > _index.Count + 2)
                {
                    throw new SegmentLayoutException($"No segment's part header covers offset {_position} of the {Length}-byte file.");
                }
                _segment = await LocateAsync(_position, cancellationToken).ConfigureAwait(false);
            }
            if (copied > 0 && SlotAt(_segment) is null)
            {
                // Move the window only when the next read asks: a scrubbing reader that just
                // finished a segment will seek away, and fetching ahead for it would be waste.
                break;
            }
            MoveWindow(_segment, _ramp);
            var ticket = SlotAt(_segment)!;
            var progress = ticket.Progress;
            var buffer = Bind(ticket);
            if (buffer?.Header is { } header)
            {
                if (_position < header.PartBegin || _position >= header.PartEnd)
                {
                    // The header contradicts where this segment was assumed to lie; the index knows better now.
                    _segment = -1;
                    ReleaseCursor();
                    continue;
                }
                var offset = (int)(_position - header.PartBegin);
                var available = Readable(buffer) - offset;
                if (available > 0)
                {
                    var count = Math.Min(available, destination.Length - copied);
                    buffer.CopyTo(offset, destination.Span.Slice(copied, count));
                    copied += count;
                    _copiedBeforeError = copied;
                    _position += count;
                    _cursorServed = Math.Max(_cursorServed, offset + count);
                    if (_position == header.PartEnd)
                    {
                        OnSegmentConsumed();
                    }
                    continue;
                }
            }
            if (ticket.Failure is { } failure)
            {
                // Forget the ticket, so reading here again fetches afresh.
                ReleaseCursor();
                RetireSlot(_segment);
                throw failure;
            }
            if (copied > 0)
            {
                break;
            }
            await WaitForAsync(ticket, progress, cancellationToken).ConfigureAwait(false);
        }
        return copied;
    }

    /// <summary>Once per read: bytes served, whether and how long it waited, and the first bytes after a seek.</summary>
    private void CountRead(StreamingMetrics metrics, int copied)
    {
        metrics.Read(copied);
        if (_waitedTicks > 0)
        {
            metrics.ReadWaited(_waitedTicks);
        }
        if (copied > 0 && _seekedAt != 0)
        {
            metrics.FirstByteAfterSeek(_seekedAt);
            _seekedAt = 0;
        }
    }

    /// <summary>
    /// Bytes of <paramref name="buffer"/> the reader may have. Unverified bytes are served as they
    /// arrive, but a part's last byte only once its CRC checked out: a reader going through a part
    /// is therefore still on it when a bad CRC is found, and gets the good copy or an error.
    /// </summary>
    private int Readable(SegmentBuffer buffer)
    {
        if (buffer.IsCompleted)
        {
            return buffer.Size;
        }
        if (buffer.IsFailed || !_options.ServeUnverifiedBytes)
        {
            return 0;
        }
        return Math.Min(buffer.Written, buffer.Size - 1);
    }

    /// <summary>
    /// The buffer to read <paramref name="ticket"/> from, referenced by the cursor. When the ticket's
    /// buffer was replaced (a retry after a failure, a race winner) after bytes were returned from
    /// the old one, the new one must repeat those bytes exactly before it is used.
    /// </summary>
    private SegmentBuffer? Bind(SegmentTicket ticket)
    {
        if (ReferenceEquals(_cursorTicket, ticket) && _cursorBuffer is not null && ticket.IsCurrent(_cursorBuffer))
        {
            return _cursorBuffer;
        }
        var next = ticket.AcquireCurrent();
        if (!ReferenceEquals(_cursorTicket, ticket) || _cursorBuffer is null)
        {
            ReleaseCursor();
            if (next is not null)
            {
                _cursorTicket = ticket;
                _cursorBuffer = next;
            }
            return next;
        }
        if (next is null)
        {
            return null;
        }
        if (_cursorServed > 0)
        {
            if (Readable(next) < _cursorServed)
            {
                next.Release();
                return null;
            }
            if (!next.StartsWithSameBytes(_cursorBuffer, _cursorServed))
            {
                next.Release();
                throw new SegmentUnavailableException(ticket.Number, ticket.MessageId,
                    $"its first copy failed verification after {_cursorServed} bytes of it were returned, and the good copy differs in those bytes");
            }
        }
        _cursorBuffer.Release();
        _cursorBuffer = next;
        return next;
    }

    /// <summary>Lets go of the cursor's buffer; one the reader took unverified bytes from is watched until its CRC is known.</summary>
    private void ReleaseCursor()
    {
        if (_cursorBuffer is { } buffer)
        {
            if (_cursorServed > 0 && !buffer.IsCompleted && !buffer.IsFailed)
            {
                _leftUnverified.Watch(buffer, _cursorTicket!.Number, _cursorTicket.MessageId);
            }
            else
            {
                buffer.Release();
            }
        }
        _cursorBuffer = null;
        _cursorTicket = null;
        _cursorServed = 0;
    }

    /// <summary>Parks until the ticket changes (new buffer, more bytes, failure), the stream is disposed, or the caller cancels.</summary>
    private async ValueTask WaitForAsync(SegmentTicket ticket, int progress, CancellationToken cancellationToken)
    {
        _fetcher.SetHead(ticket);
        _fetcher.Wake();
        _context.Wakeup.WaitFor(ticket.Index);
        var started = _metrics is null ? 0 : Stopwatch.GetTimestamp();
        try
        {
            if (ticket.Progress != progress || Volatile.Read(ref _disposed) != 0)
            {
                return;
            }
            await _context.Wakeup.Signal.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _context.Wakeup.StopWaiting();
            if (started != 0)
            {
                _waitedTicks += Stopwatch.GetTimestamp() - started;
            }
        }
    }

    /// <summary>
    /// The segment holding <paramref name="position"/>. In an irregular layout this may fetch probe
    /// segments (interpolation search); a probe stays in the window, so if it is the one, its data is used.
    /// </summary>
    private async ValueTask<int> LocateAsync(long position, CancellationToken cancellationToken)
    {
        while (true)
        {
            var location = _index.Locate(position);
            switch (location.Kind)
            {
                case SegmentLocationKind.Found:
                    return location.Segment;
                case SegmentLocationKind.Gap:
                    throw new SegmentLayoutException(
                        $"Bytes {location.GapStart}..{location.GapEnd} of the {Length}-byte file are in no segment (offset {position} was read): the NZB lacks a part there.");
            }
            MoveWindow(location.Segment, 1);
            var probe = SlotAt(location.Segment)!;
            while (true)
            {
                var progress = probe.Progress;
                if (Bind(probe)?.Header is not null)
                {
                    break;
                }
                if (probe.Failure is { } failure)
                {
                    ReleaseCursor();
                    RetireSlot(probe.Index);
                    throw failure;
                }
                await WaitForAsync(probe, progress, cancellationToken).ConfigureAwait(false);
            }
        }
    }
}
