using System.Diagnostics.CodeAnalysis;

namespace NzbDav.Streaming.Combined;

/// <summary>
/// A read-only, seekable stream made of byte ranges of several inner streams (RAR volumes,
/// <c>.001/.002</c> splits, multipart files), with an exact <see cref="Length"/>. Inner streams
/// are opened lazily when a read first needs them; at most
/// <see cref="CombinedStreamOptions.MaxOpenStreams"/> stay open (least recently used is disposed
/// first), and a disposed inner stream is never used again: coming back to its part opens a fresh
/// one from the part's factory. One operation at a time, like any <see cref="Stream"/>.
/// </summary>
/// <remarks>
/// A read returns bytes from one part at most (fewer than asked at a part's end, like a network
/// stream); the next read continues in the next part. Inner streams that end before their part's
/// length, or fail, raise the error and are disposed, so a retry opens them afresh.
/// </remarks>
public sealed partial class CombinedStream : Stream, IReadAheadSource
{
    private readonly CombinedPartMap _map;
    private readonly OpenInnerStreamCache _open;
    private readonly InnerStreamTotals _totals = new();
    private long _position;
    private Stream? _reading;
    private long _streamsOpened;
    private int _busy;
    private int _disposed;

    /// <summary>Creates the stream; nothing is opened until the first read.</summary>
    /// <exception cref="ArgumentException">A null part, lengths that overflow, or invalid options.</exception>
    public CombinedStream(IEnumerable<CombinedStreamPart> parts, CombinedStreamOptions? options = null)
    {
        options ??= CombinedStreamOptions.Default;
        options.Validate();
        _map = new CombinedPartMap(parts);
        _open = new OpenInnerStreamCache(options.MaxOpenStreams);
    }

    /// <summary>How many inner streams have been opened from part factories so far.</summary>
    public long StreamsOpened => Interlocked.Read(ref _streamsOpened);

    /// <summary>Inner streams open right now.</summary>
    public int OpenStreamCount => _open.Count;

    public override bool CanRead => Volatile.Read(ref _disposed) == 0;

    public override bool CanSeek => Volatile.Read(ref _disposed) == 0;

    public override bool CanWrite => false;

    public override long Length
    {
        get
        {
            ThrowIfDisposed();
            return _map.Length;
        }
    }

    public override long Position
    {
        get
        {
            ThrowIfDisposed();
            return _position;
        }
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            Seek(value, SeekOrigin.Begin);
        }
    }

    /// <summary>Moves the position; beyond the end is allowed (reads there return 0). Opens nothing.</summary>
    public override long Seek(long offset, SeekOrigin origin)
    {
        ThrowIfDisposed();
        ThrowIfBusy();
        var target = origin switch
        {
            SeekOrigin.Begin => offset,
            SeekOrigin.Current => _position + offset,
            SeekOrigin.End => _map.Length + offset,
            _ => throw new ArgumentOutOfRangeException(nameof(origin), origin, "Unknown seek origin."),
        };
        if (target < 0)
        {
            throw new IOException($"Cannot seek to {target}: that is before the beginning of the stream.");
        }

        _position = target;
        return target;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        if (Interlocked.Exchange(ref _busy, 1) != 0)
        {
            throw ConcurrentUse();
        }

        try
        {
            cancellationToken.ThrowIfCancellationRequested();
            var position = _position;
            if (buffer.Length == 0 || position >= _map.Length)
            {
                return 0;
            }

            var index = _map.IndexOf(position);
            var within = position - _map.StartOf(index);
            var count = (int)Math.Min(buffer.Length, _map[index].Length - within);
            var read = await ReadPartAsync(index, within, buffer[..count], cancellationToken).ConfigureAwait(false);
            _position = position + read;
            return read;
        }
        finally
        {
            Volatile.Write(ref _busy, 0);
        }
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    // Part factories are asynchronous, so the rare synchronous caller waits on the async path.
    [SuppressMessage("ApiDesign", "RS0030:Do not use banned APIs", Justification = "Stream.Read is synchronous by contract.")]
    public override int Read(byte[] buffer, int offset, int count) =>
        ReadAsync(buffer.AsMemory(offset, count), CancellationToken.None).AsTask().GetAwaiter().GetResult();

    public override void Flush()
    {
        // Read-only: nothing is ever buffered for writing.
    }

    public override void SetLength(long value) => throw new NotSupportedException("A combined stream is read-only.");

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("A combined stream is read-only.");

    /// <summary>Disposes every open inner stream.</summary>
    [SuppressMessage("Usage", "CA2215:Dispose methods should call base class dispose",
        Justification = "Stream.DisposeAsync only calls Dispose(), which does nothing once this has run: this method is the whole cleanup.")]
    public override async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        List<Exception>? errors = null;
        foreach (var entry in _open.RemoveAll())
        {
            try
            {
                await entry.Stream.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception ex)
            {
                (errors ??= []).Add(ex);
            }
            finally
            {
                _totals.Closed(entry.Stream);
            }
        }

        GC.SuppressFinalize(this);
        if (errors is not null)
        {
            throw new AggregateException("Disposing the inner streams of a combined stream failed.", errors);
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing && Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            foreach (var entry in _open.RemoveAll())
            {
                try
                {
                    entry.Stream.Dispose();
                }
                finally
                {
                    _totals.Closed(entry.Stream);
                }
            }
        }

        base.Dispose(disposing);
    }

    private static InvalidOperationException ConcurrentUse() =>
        new("A combined stream does not support concurrent operations: await each read before the next read or seek.");

    private void ThrowIfBusy()
    {
        if (Volatile.Read(ref _busy) != 0)
        {
            throw ConcurrentUse();
        }
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
}
