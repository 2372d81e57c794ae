namespace NzbDav.Server.Tests.WebDav;

/// <summary>A seekable read-only stream of <c>length</c> deterministic bytes (<see cref="ByteAt"/>), reporting its disposal.</summary>
public sealed class PatternStream(long length, Action onDispose) : Stream
{
    private long _position;
    private bool _disposed;

    public static byte ByteAt(long position) => (byte)((position * 7 + (position >> 9)) % 251);

    public static byte[] Expected(long from, long count)
    {
        var bytes = new byte[count];
        for (var i = 0; i < count; i++)
            bytes[i] = ByteAt(from + i);
        return bytes;
    }

    public override bool CanRead => !_disposed;

    public override bool CanSeek => !_disposed;

    public override bool CanWrite => false;

    public override long Length => length;

    public override long Position
    {
        get => _position;
        set => Seek(value, SeekOrigin.Begin);
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var n = (int)Math.Min(buffer.Length, length - _position);
        for (var i = 0; i < n; i++)
            buffer[i] = ByteAt(_position + i);
        _position += n;
        return n;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return ValueTask.FromResult(Read(buffer.Span));
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override long Seek(long offset, SeekOrigin origin)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var target = origin switch
        {
            SeekOrigin.Begin => offset,
            SeekOrigin.Current => _position + offset,
            _ => length + offset,
        };
        ArgumentOutOfRangeException.ThrowIfNegative(target);
        _position = target;
        return target;
    }

    public override void Flush()
    {
    }

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (!_disposed)
        {
            _disposed = true;
            onDispose();
        }

        base.Dispose(disposing);
    }
}
