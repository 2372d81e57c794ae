namespace NzbDav.Usenet.Tests.Nzb;

// Returns 1 to 7 bytes per read so every token of the XML straddles read boundaries somewhere.
internal sealed class TrickleStream(byte[] data, Action<int>? onRead = null) : Stream
{
    private int _position;

    public int Reads { get; private set; }

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => data.Length;

    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        Reads++;
        onRead?.Invoke(Reads);
        var size = Math.Min(Math.Min(buffer.Length, 1 + (Reads % 7)), data.Length - _position);
        data.AsSpan(_position, size).CopyTo(buffer);
        _position += size;
        return size;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        await Task.Yield();
        return Read(buffer.Span);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
