using System.Buffers;

namespace NzbDav.Archives.Entries;

/// <summary>
/// Reads header bytes from one volume in chunks, so that consecutive small headers cost one
/// positioned read (in production every seek is a network round trip). The returned memory is
/// valid until the next call.
/// </summary>
internal sealed class HeaderWindow : IDisposable
{
    private const int ChunkSize = 16 * 1024;

    private readonly Stream _stream;
    private readonly string _volumeName;
    private byte[] _buffer;
    private long _bufferStart;
    private int _bufferCount;

    public HeaderWindow(Stream stream, string volumeName)
    {
        if (!stream.CanSeek || !stream.CanRead)
        {
            throw new ArgumentException(volumeName + " must be a readable, seekable stream", nameof(stream));
        }

        _stream = stream;
        _volumeName = volumeName;
        Length = stream.Length;
        _buffer = ArrayPool<byte>.Shared.Rent(ChunkSize);
    }

    /// <summary>Length of the volume.</summary>
    public long Length { get; }

    /// <summary>Exactly <paramref name="count"/> bytes at <paramref name="position"/>, or a truncation error.</summary>
    public async ValueTask<ReadOnlyMemory<byte>> ReadAsync(long position, int count, string what, CancellationToken cancellationToken)
    {
        if (position < 0 || count < 0 || position > Length - count)
        {
            throw new ArchiveFormatException($"{_volumeName} is truncated: {what} at offset {position} needs {count} bytes but the volume is {Length} bytes long");
        }

        await FillAsync(position, count, cancellationToken).ConfigureAwait(false);
        return _buffer.AsMemory((int)(position - _bufferStart), count);
    }

    /// <summary>Up to <paramref name="count"/> bytes at <paramref name="position"/> (fewer at the end of the volume).</summary>
    public async ValueTask<ReadOnlyMemory<byte>> ReadAvailableAsync(long position, int count, CancellationToken cancellationToken)
    {
        var available = (int)Math.Clamp(Length - position, 0, count);
        if (available == 0)
        {
            return ReadOnlyMemory<byte>.Empty;
        }

        await FillAsync(position, available, cancellationToken).ConfigureAwait(false);
        return _buffer.AsMemory((int)(position - _bufferStart), available);
    }

    public void Dispose()
    {
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
        _bufferCount = 0;
    }

    private async ValueTask FillAsync(long position, int count, CancellationToken cancellationToken)
    {
        if (position >= _bufferStart && position + count <= _bufferStart + _bufferCount)
        {
            return;
        }

        var want = (int)Math.Min(Math.Max(count, ChunkSize), Length - position);
        if (_buffer.Length < want)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = ArrayPool<byte>.Shared.Rent(want);
        }

        _bufferCount = 0;
        _bufferStart = position;
        _stream.Position = position;
        // Ask for a whole chunk but stop once the caller's bytes are in: a volume stream over Usenet
        // returns what it already holds (the probed first article) and a further read would be a
        // round trip for bytes nobody asked for yet.
        while (_bufferCount < count)
        {
            var read = await _stream.ReadAsync(_buffer.AsMemory(_bufferCount, want - _bufferCount), cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                break;
            }

            _bufferCount += read;
        }

        if (_bufferCount < count)
        {
            throw new ArchiveFormatException($"{_volumeName} ended early: {count} bytes expected at offset {position}, {_bufferCount} read");
        }
    }
}
