namespace NzbDav.Archives.Entries;

/// <summary>
/// The Stream plumbing shared by every view NzbDav reads archives through (entry ranges, AES
/// decryption, volumes over Usenet articles): seekable, read-only, position past the end allowed.
/// Subclasses supply <see cref="Stream.Length"/> and the reads, and move <see cref="Position"/>.
/// </summary>
public abstract class ReadOnlySeekableStream : Stream
{
    private long _position;

    /// <inheritdoc />
    public sealed override bool CanRead => true;

    /// <inheritdoc />
    public sealed override bool CanSeek => true;

    /// <inheritdoc />
    public sealed override bool CanWrite => false;

    /// <inheritdoc />
    public sealed override long Position
    {
        get => _position;
        set => _position = value >= 0 ? value : throw new ArgumentOutOfRangeException(nameof(value));
    }

    /// <inheritdoc />
    public sealed override long Seek(long offset, SeekOrigin origin) => Position = origin switch
    {
        SeekOrigin.Begin => offset,
        SeekOrigin.Current => _position + offset,
        SeekOrigin.End => Length + offset,
        _ => throw new ArgumentOutOfRangeException(nameof(origin)),
    };

    /// <inheritdoc />
    public sealed override void Flush()
    {
    }

    /// <inheritdoc />
    public sealed override void SetLength(long value) => throw new NotSupportedException($"{GetType().Name} is read-only.");

    /// <inheritdoc />
    public sealed override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException($"{GetType().Name} is read-only.");
}
