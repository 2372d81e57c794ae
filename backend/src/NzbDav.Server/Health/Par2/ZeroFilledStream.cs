using NzbDav.Streaming;

namespace NzbDav.Server.Health.Par2;

/// <summary>
/// What a repair reads a release through: an article missing on every provider reads as zeros of
/// its length instead of ending the read, and the read goes on from the next article. The repair
/// needs no more: a recovery packet with zeros in it fails its MD5 and is passed over, and a
/// surviving slice with zeros in it fails its IFSC checksum and is rebuilt with the lost ones.
/// </summary>
internal sealed class ZeroFilledStream(BufferedSegmentStream inner) : Stream
{
    private long _position;
    private long _zeroUntil = -1;

    /// <summary>Articles read as zeros.</summary>
    public int Filled { get; private set; }

    public override bool CanRead => true;

    public override bool CanSeek => true;

    public override bool CanWrite => false;

    public override long Length => inner.Length;

    public override long Position
    {
        get => _position;
        set => Seek(value, SeekOrigin.Begin);
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (buffer.IsEmpty || _position >= inner.Length)
            return 0;
        if (_position < _zeroUntil)
            return Zeros(buffer.Span);
        try
        {
            var read = await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
            _position += read;
            return read;
        }
        catch (SegmentUnavailableException error) when (!cancellationToken.IsCancellationRequested
            && inner.Index.TryGetRange(error.SegmentNumber - 1, out var begin, out var length) && begin <= _position && _position < begin + length)
        {
            _zeroUntil = begin + length;
            Filled++;
            return Zeros(buffer.Span);
        }
    }

    // The missing article's bytes as zeros; past its end the inner stream goes on from the next one.
    private int Zeros(Span<byte> buffer)
    {
        var count = (int)Math.Min(buffer.Length, _zeroUntil - _position);
        buffer[..count].Clear();
        _position += count;
        if (_position == _zeroUntil)
            inner.Seek(_position, SeekOrigin.Begin);
        return count;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) =>
        throw new NotSupportedException("A repair reads asynchronously.");

    public override long Seek(long offset, SeekOrigin origin)
    {
        _zeroUntil = -1;
        _position = inner.Seek(offset, origin);
        return _position;
    }

    public override void Flush()
    {
    }

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override async ValueTask DisposeAsync()
    {
        await inner.DisposeAsync().ConfigureAwait(false);
        await base.DisposeAsync().ConfigureAwait(false);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            inner.Dispose();
        base.Dispose(disposing);
    }
}
