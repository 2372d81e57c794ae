namespace NzbDav.Archives.Entries;

/// <summary>
/// Read-only seekable view of an entry's stored bytes over its volume ranges. The volumes are not
/// owned (not disposed); only the volume under the current position is touched by a read.
/// </summary>
public sealed class ArchiveRangeStream : ReadOnlySeekableStream
{
    private readonly IReadOnlyList<Stream> _volumes;
    private readonly ArchiveByteRange[] _ranges;
    private readonly long[] _starts;

    /// <summary>Creates a view of <paramref name="ranges"/> (in order) over <paramref name="volumes"/>.</summary>
    public ArchiveRangeStream(IReadOnlyList<Stream> volumes, IReadOnlyList<ArchiveByteRange> ranges)
    {
        _volumes = volumes;
        _ranges = [.. ranges];
        _starts = new long[_ranges.Length];
        long total = 0;
        for (var i = 0; i < _ranges.Length; i++)
        {
            var range = _ranges[i];
            if ((uint)range.VolumeIndex >= (uint)volumes.Count || range.Offset < 0 || range.Length < 0)
            {
                throw new ArgumentException($"range {i} ({range}) does not fit the {volumes.Count} volumes given", nameof(ranges));
            }

            _starts[i] = total;
            total += range.Length;
        }

        Length = total;
    }

    /// <inheritdoc />
    public override long Length { get; }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        if (!Locate(buffer.Length, out var volume, out var volumeOffset, out var count))
        {
            return 0;
        }

        volume.Position = volumeOffset;
        var read = volume.Read(buffer[..count]);
        Position += read;
        return read;
    }

    /// <inheritdoc />
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <inheritdoc />
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (!Locate(buffer.Length, out var volume, out var volumeOffset, out var count))
        {
            return 0;
        }

        volume.Position = volumeOffset;
        var read = await volume.ReadAsync(buffer[..count], cancellationToken).ConfigureAwait(false);
        Position += read;
        return read;
    }

    private bool Locate(int wanted, out Stream volume, out long volumeOffset, out int count)
    {
        volume = Null;
        volumeOffset = 0;
        count = 0;
        if (wanted == 0 || Position >= Length)
        {
            return false;
        }

        var index = Array.BinarySearch(_starts, Position);
        if (index < 0)
        {
            index = ~index - 1;
        }

        // Zero-length ranges share a start with their successor; step past them.
        while (_ranges[index].Length == 0 || Position >= _starts[index] + _ranges[index].Length)
        {
            index++;
        }

        var range = _ranges[index];
        var within = Position - _starts[index];
        volume = _volumes[range.VolumeIndex];
        volumeOffset = range.Offset + within;
        count = (int)Math.Min(wanted, range.Length - within);
        return true;
    }
}
