using System.Buffers;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.ExceptionServices;
using Microsoft.Extensions.Logging;

namespace NzbDav.Streaming;

/// <summary>
/// A read-only, seekable stream over the decoded bytes of one NZB file. Connections fetch segments
/// ahead of the reader (each pipelining several requests) into a lock-free ring of slots; the reader
/// copies out of a segment while it is still arriving. Read-ahead is bounded in bytes and starts
/// small after opening and after every seek, growing as the reader keeps consuming. A late segment
/// the reader waits for is raced on another connection; a failed one is fetched again elsewhere; a
/// segment nobody can deliver makes the read throw <see cref="SegmentUnavailableException"/>.
/// Not thread-safe (one reader at a time), like any <see cref="Stream"/>; dispose it to return its
/// connections and buffers.
/// </summary>
public sealed class BufferedSegmentStream : Stream, IReadAheadSource
{
    private readonly SegmentIndex _index;
    private readonly ISegmentFetcher _fetcher;
    private readonly StreamContext _context;
    private readonly StreamingMetrics? _metrics;
    private readonly SegmentWindow _window;
    private readonly ReadAheadRamp _ramp;
    private readonly ReadCursor _cursor;
    private long _position;
    private long _seekedAt;
    private int _busy;
    private int _disposed;
    private int _cleanedUp;
    private ExceptionDispatchInfo? _deferredError;
    private int _copiedBeforeError;
    private long _waitedTicks;
    private long _neverRead;
    private int _orphansSeen;
    private readonly ILogger? _logger;
    private SegmentTicket? _lastWaited;
    private int _waits;

    /// <summary>A read that took this long is logged (Warning) with where it waited: the stall a player sees.</summary>
    private static readonly long SlowReadTicks = Stopwatch.Frequency * 2;

    internal BufferedSegmentStream(
        SegmentIndex index,
        ISegmentFetcher fetcher,
        StreamingOptions options,
        StreamStatistics statistics,
        SegmentBuffer? firstSegment,
        ArrayPool<byte> bufferPool,
        SegmentCache cache,
        ReadAheadBudget budget,
        TimeProvider time,
        StreamingMetrics? metrics = null,
        SegmentHoles? holes = null,
        ILogger? logger = null,
        Disk.DiskSegmentStore? disk = null)
    {
        _logger = logger;
        _index = index;
        _fetcher = fetcher;
        Statistics = statistics;
        _context = new StreamContext(index, new ReaderWakeup(), bufferPool, statistics)
        {
            Holes = holes is null || !index.IsRegular ? null : holes.Map(index.MessageIds),
            OnFirstFill = holes?.OnFirstFill,
            Patches = holes?.Patches,
            Metrics = metrics,
            Cache = cache,
            Disk = disk,
        };
        cache.OpenFile(_context.FileKey);
        var maxWindow = SegmentWindow.MaxSegments(index, options);
        _window = new SegmentWindow(index, fetcher, _context, options, maxWindow);
        _ramp = new ReadAheadRamp(index, options, fetcher, budget, maxWindow, time);
        _cursor = new ReadCursor(options.ServeUnverifiedBytes);
        if (firstSegment is not null)
        {
            _window.Adopt(firstSegment);
        }
        _metrics = metrics;
        metrics?.Opened();
    }

    /// <summary>Counters of this stream (fetched vs read bytes, retries, races, lease waits).</summary>
    public StreamStatistics Statistics { get; }

    /// <inheritdoc />
    /// <remarks>Fetched minus read, less what a seek left behind (counted once, at the seek).</remarks>
    public long BytesAhead => Math.Max(0, Statistics.BytesFetched + Statistics.BytesShared - Statistics.BytesRead - Volatile.Read(ref _neverRead));

    /// <inheritdoc />
    public long BytesFetched => Statistics.BytesFetched;

    /// <inheritdoc />
    public long BytesShared => Statistics.BytesShared;

    /// <summary>The file's segment layout.</summary>
    public SegmentIndex Index => _index;

    /// <inheritdoc />
    public override bool CanRead => Volatile.Read(ref _disposed) == 0;

    /// <inheritdoc />
    public override bool CanSeek => Volatile.Read(ref _disposed) == 0;

    /// <inheritdoc />
    public override bool CanWrite => false;

    /// <summary>The exact decoded size of the file.</summary>
    public override long Length => _index.FileSize;

    /// <inheritdoc />
    public override long Position
    {
        get => _position;
        set => Seek(value, SeekOrigin.Begin);
    }

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin)
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var target = origin switch
        {
            SeekOrigin.Begin => offset,
            SeekOrigin.Current => _position + offset,
            SeekOrigin.End => Length + offset,
            _ => throw new ArgumentOutOfRangeException(nameof(origin), origin, "Unknown seek origin."),
        };
        if (target < 0)
        {
            throw new IOException($"Cannot seek to {target}: before the start of the stream.");
        }
        if (Volatile.Read(ref _busy) != 0)
        {
            throw new InvalidOperationException("Cannot seek while a read is in progress.");
        }
        if (target != _position)
        {
            // What was fetched and not read so far is taken as left behind; bytes the window keeps
            // across the seek then read as "behind" too, which the clamp in BytesAhead absorbs.
            Volatile.Write(ref _neverRead, Statistics.BytesFetched + Statistics.BytesShared - Statistics.BytesRead);
            MoveTo(target);
            if (_metrics is not null)
            {
                _metrics.Seeked();
                _seekedAt = Stopwatch.GetTimestamp();
            }
        }
        return _position;
    }

    /// <inheritdoc />
    [SuppressMessage("ApiDesign", "RS0030:Do not use banned APIs", Justification = "Stream.Read is synchronous by contract: the rare synchronous caller waits on the async path.")]
    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadCoreAsync(buffer.AsMemory(offset, count), CancellationToken.None).AsTask().GetAwaiter().GetResult();
    }

    /// <inheritdoc />
    [SuppressMessage("ApiDesign", "RS0030:Do not use banned APIs", Justification = "Stream.Read is synchronous by contract: the rare synchronous caller waits on the async path.")]
    public override int Read(Span<byte> buffer)
    {
        var rented = ArrayPool<byte>.Shared.Rent(buffer.Length);
        try
        {
            var read = ReadCoreAsync(rented.AsMemory(0, buffer.Length), CancellationToken.None).AsTask().GetAwaiter().GetResult();
            rented.AsSpan(0, read).CopyTo(buffer);
            return read;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <inheritdoc />
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadCoreAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <inheritdoc />
    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        ReadCoreAsync(buffer, cancellationToken);

    /// <summary>Nothing to flush: the stream is read-only.</summary>
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Not supported: the stream is read-only.</summary>
    public override void SetLength(long value) => throw new NotSupportedException("The stream is read-only.");

    /// <summary>Not supported: the stream is read-only.</summary>
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("The stream is read-only.");

    /// <summary>Stops fetching, waits for fetches already receiving, returns every lease and buffer.</summary>
    [SuppressMessage("Usage", "CA2215:Dispose methods should call base class dispose",
        Justification = "Stream.DisposeAsync only calls Dispose(), which does nothing once this has run: this method is the whole cleanup.")]
    public override async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }
        _metrics?.Closed();
        _context.Cache.CloseFile(_context.FileKey);
        _context.Wakeup.Signal.Set();
        try
        {
            await _fetcher.DisposeAsync().ConfigureAwait(false);
        }
        finally
        {
            // A read still running on another thread cleans up when it leaves.
            if (Interlocked.CompareExchange(ref _busy, 2, 0) == 0)
            {
                CleanUp();
            }
        }
    }

    /// <inheritdoc />
    [SuppressMessage("ApiDesign", "RS0030:Do not use banned APIs", Justification = "Dispose is synchronous by contract; the cleanup is asynchronous.")]
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
        base.Dispose(disposing);
    }

    private void EnterReader()
    {
        if (Interlocked.CompareExchange(ref _busy, 1, 0) != 0)
        {
            ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
            throw new InvalidOperationException("Another read is already in progress on this stream.");
        }
        if (Volatile.Read(ref _disposed) != 0)
        {
            ExitReader();
            throw new ObjectDisposedException(nameof(BufferedSegmentStream));
        }
    }

    private void ExitReader()
    {
        Volatile.Write(ref _busy, 0);
        if (Volatile.Read(ref _disposed) != 0 && Interlocked.CompareExchange(ref _busy, 2, 0) == 0)
        {
            CleanUp();
        }
    }

    private void CleanUp()
    {
        if (Interlocked.Exchange(ref _cleanedUp, 1) != 0)
        {
            return;
        }
        _cursor.Clear();
        _ramp.Release();
        // The segment being read and those after it were not (all) read: worth keeping for a reopen.
        _window.Clear(_index.IsRegular ? (int)Math.Min(_position / _index.PartSize, int.MaxValue) : Math.Max(0, _cursor.Segment));
    }

    /// <summary>
    /// The reader will not read past <paramref name="end"/> (a file offset, exclusive), so nothing
    /// beyond it is fetched ahead. Reads past it still work, fetching on demand. A WebDAV GET for a
    /// byte range sets this: a scanner's 64 KiB header read then costs one segment, not the start
    /// read-ahead. Call it from the reader's side, like reads and seeks.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="end"/> is negative.</exception>
    public void LimitReadAhead(long end)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(end);
        _window.LimitTo(end);
    }

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
            _cursor.ThrowIfAnyProvedCorrupt();
            if (_context.Orphans != _orphansSeen)
            {
                // Another stream's fetch this one relied on went away with that stream.
                _orphansSeen = _context.Orphans;
                _window.RefetchOrphans();
            }
            _ramp.OnReadStarted(_position, _window.SegmentsToLimit(_position));
            _waitedTicks = 0;
            _waits = 0;
            var readStarted = Stopwatch.GetTimestamp();
            var startedAt = _position;
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
            if (_logger is not null && Stopwatch.GetTimestamp() - readStarted >= SlowReadTicks)
            {
                LogSlowRead(_logger, readStarted, startedAt, copied);
            }
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
            if (_cursor.Segment < 0 || _cursor.Segment >= _index.Count)
            {
                if (++relocations > _index.Count + 2)
                {
                    throw new SegmentLayoutException($"No segment's part header covers offset {_position} of the {Length}-byte file.");
                }
                _cursor.Segment = await LocateAsync(_position, cancellationToken).ConfigureAwait(false);
            }
            if (copied > 0 && _window.SlotAt(_cursor.Segment) is null)
            {
                // Move the window only when the next read asks: a scrubbing reader that just
                // finished a segment will seek away, and fetching ahead for it would be waste.
                break;
            }
            _window.Move(_cursor.Segment, _ramp.Span);
            var ticket = _window.SlotAt(_cursor.Segment)!;
            var progress = ticket.Progress;
            var buffer = _cursor.Bind(ticket);
            if (buffer?.Header is { } header)
            {
                if (_position < header.PartBegin || _position >= header.PartEnd)
                {
                    // The header contradicts where this segment was assumed to lie; the index knows better now.
                    _cursor.Segment = -1;
                    _cursor.Release();
                    continue;
                }
                var offset = (int)(_position - header.PartBegin);
                var available = _cursor.Readable(buffer) - offset;
                if (available > 0)
                {
                    var count = Math.Min(available, destination.Length - copied);
                    buffer.CopyTo(offset, destination.Span.Slice(copied, count));
                    copied += count;
                    _copiedBeforeError = copied;
                    _position += count;
                    _cursor.Served(offset + count);
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
                _cursor.Release();
                _window.Retire(_cursor.Segment, unread: false);
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

    /// <summary>Parks until the ticket changes (new buffer, more bytes, failure), the stream is disposed, or the caller cancels.</summary>
    private async ValueTask WaitForAsync(SegmentTicket ticket, int progress, CancellationToken cancellationToken)
    {
        _window.Refetch(ticket);
        _window.SetHead(ticket);
        _ramp.OnWaited();
        _fetcher.Wake();
        _context.Wakeup.WaitFor(ticket.Index);
        _lastWaited = ticket;
        _waits++;
        var started = Stopwatch.GetTimestamp();
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
            _waitedTicks += Stopwatch.GetTimestamp() - started;
        }
    }

    /// <summary>How long the read took, how much of it waiting on fetches, and the last segment waited on as it stands now.</summary>
    private void LogSlowRead(ILogger logger, long readStarted, long offset, int copied)
    {
        var ticket = _lastWaited;
        var state = ticket is null
            ? "it never waited on a segment"
            : $"the last on segment {ticket.Index} <{ticket.MessageId}>: "
                + (ticket.Source is null ? "no fetch of its own" : ReferenceEquals(ticket.Source.Owner, _fetcher) ? "fetched by this stream" : "fetched by another stream")
                + (ticket.IsCompleted ? ", completed" : ticket.HasBuffer ? ", arriving" : ", nothing arrived")
                + (ticket.IsOrphaned ? ", orphaned" : "") + (ticket.Failure is not null ? ", failed" : "");
        StreamLog.SlowRead(logger, (long)Stopwatch.GetElapsedTime(readStarted).TotalMilliseconds, offset, _context.FileKey, copied,
            (long)(_waitedTicks * 1000 / Stopwatch.Frequency), _waits, state);
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
            _window.Move(location.Segment, 1);
            var probe = _window.SlotAt(location.Segment)!;
            while (true)
            {
                var progress = probe.Progress;
                if (_cursor.Bind(probe)?.Header is not null)
                {
                    break;
                }
                if (probe.Failure is { } failure)
                {
                    _cursor.Release();
                    _window.Retire(probe.Index, unread: false);
                    throw failure;
                }
                await WaitForAsync(probe, progress, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>The reader finished a segment: the read-ahead grows.</summary>
    private void OnSegmentConsumed()
    {
        _cursor.Segment++;
        _cursor.Release();
        _ramp.OnSegmentConsumed(_window.SegmentsToLimit(_position));
    }

    /// <summary>Seek: keep the window when the target is inside it, otherwise start small again.</summary>
    private void MoveTo(long target)
    {
        _position = target;
        _deferredError = null; // it was about the bytes after the old position
        if (_cursor.Header is { } header && target >= header.PartBegin && target < header.PartEnd)
        {
            return;
        }
        _cursor.Segment = -1;
        _cursor.Release();
        if (target < Length && _index.IsRegular && _window.Contains(_index.Locate(target).Segment))
        {
            return;
        }
        _ramp.Reset();
    }
}
