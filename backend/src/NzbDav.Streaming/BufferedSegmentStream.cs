using System.Buffers;
using System.Diagnostics;

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
public sealed partial class BufferedSegmentStream : Stream
{
    private readonly SegmentIndex _index;
    private readonly ISegmentFetcher _fetcher;
    private readonly StreamingOptions _options;
    private readonly StreamContext _context;
    private readonly StreamingMetrics? _metrics;
    private long _position;
    private long _seekedAt;
    private int _busy;
    private int _disposed;
    private int _cleanedUp;

    internal BufferedSegmentStream(
        SegmentIndex index,
        ISegmentFetcher fetcher,
        StreamingOptions options,
        StreamStatistics statistics,
        SegmentBuffer? firstSegment,
        ArrayPool<byte> bufferPool,
        StreamingMetrics? metrics = null)
    {
        _index = index;
        _fetcher = fetcher;
        _options = options;
        Statistics = statistics;
        _context = new StreamContext(index, new ReaderWakeup(), bufferPool, statistics);
        _maxWindowSegments = MaxWindowSegments(index, options);
        var ring = 1;
        while (ring < _maxWindowSegments + options.KeepBehindSegments + 2)
        {
            ring <<= 1;
        }
        _ring = new SegmentTicket?[ring];
        _mask = ring - 1;
        // Opened to be read from the start: the first read asks for the start read-ahead (after a
        // seek, for one segment, growing as the reader proves it streams).
        ResetRamp();
        _ramp = StartRampSegments();
        _openedAtStart = true;
        if (firstSegment is not null)
        {
            var ticket = CreateTicket(0);
            ticket.Adopt(firstSegment);
            _windowEnd = 1;
        }
        _metrics = metrics;
        metrics?.Opened();
    }

    /// <summary>Counters of this stream (fetched vs read bytes, retries, races, lease waits).</summary>
    public StreamStatistics Statistics { get; }

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
    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadCoreAsync(buffer.AsMemory(offset, count), CancellationToken.None).AsTask().GetAwaiter().GetResult();
    }

    /// <inheritdoc />
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
    public override async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }
        _metrics?.Closed();
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
        ReleaseCursor();
        _leftUnverified.Clear();
        for (var i = 0; i < _ring.Length; i++)
        {
            _ring[i]?.Retire();
            _ring[i] = null;
        }
    }
}
