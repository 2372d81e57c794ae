namespace NzbDav.Archives.Tests.Entries;

/// <summary>
/// A volume of which only the first <c>limit</c> bytes may be read, as when only its first article
/// is at hand: a read beyond fails the test instead of returning data.
/// </summary>
internal sealed class PrefixOnlyStream(byte[] data, int limit) : Stream
{
    private long _position;

    public override bool CanRead => true;

    public override bool CanSeek => true;

    public override bool CanWrite => false;

    public override long Length => data.Length;

    public override long Position
    {
        get => _position;
        set => _position = value;
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        if (_position >= limit)
            throw new InvalidOperationException($"read at offset {_position} of {data.Length}, beyond the first {limit} bytes");
        var take = (int)Math.Min(count, limit - _position);
        data.AsSpan((int)_position, take).CopyTo(buffer.AsSpan(offset));
        _position += take;
        return take;
    }

    public override long Seek(long offset, SeekOrigin origin) => _position = origin switch
    {
        SeekOrigin.Begin => offset,
        SeekOrigin.Current => _position + offset,
        _ => data.Length + offset,
    };

    public override void Flush()
    {
    }

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
