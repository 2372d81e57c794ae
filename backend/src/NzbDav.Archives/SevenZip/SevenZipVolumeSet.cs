using NzbDav.Archives.Entries;

namespace NzbDav.Archives.SevenZip;

/// <summary>
/// A 7z archive split into <c>.7z.001</c>, <c>.002</c>… is one byte sequence cut at arbitrary
/// points: archive offsets map onto volumes by cumulative length.
/// </summary>
internal sealed class SevenZipVolumeSet
{
    private readonly IReadOnlyList<Stream> _volumes;
    private readonly long[] _starts;

    public SevenZipVolumeSet(IReadOnlyList<Stream> volumes)
    {
        _volumes = volumes;
        _starts = new long[volumes.Count];
        long total = 0;
        for (var i = 0; i < volumes.Count; i++)
        {
            if (!volumes[i].CanSeek || !volumes[i].CanRead)
            {
                throw new ArgumentException($"7z volume {i + 1} must be a readable, seekable stream", nameof(volumes));
            }

            _starts[i] = total;
            total += volumes[i].Length;
        }

        Length = total;
    }

    public long Length { get; }

    /// <summary>Reads exactly <paramref name="count"/> bytes at archive offset <paramref name="offset"/>.</summary>
    public async Task<byte[]> ReadAsync(long offset, int count, string what, CancellationToken cancellationToken)
    {
        if (offset < 0 || count < 0 || offset > Length - count)
        {
            throw new ArchiveFormatException($"7z archive is truncated: {what} at offset {offset} needs {count} bytes but the volumes hold {Length}");
        }

        var buffer = new byte[count];
        foreach (var range in Map(offset, count))
        {
            var stream = _volumes[range.VolumeIndex];
            stream.Position = range.Offset;
            var destination = (int)(_starts[range.VolumeIndex] + range.Offset - offset);
            await stream.ReadExactlyAsync(buffer.AsMemory(destination, (int)range.Length), cancellationToken).ConfigureAwait(false);
        }

        return buffer;
    }

    /// <summary>The volume ranges holding archive bytes [offset, offset + length).</summary>
    public List<ArchiveByteRange> Map(long offset, long length)
    {
        if (offset < 0 || length < 0 || offset > Length - length)
        {
            throw new ArchiveFormatException($"7z archive is truncated: {length} bytes at offset {offset} lie beyond the {Length} bytes of its volumes");
        }

        var ranges = new List<ArchiveByteRange>();
        for (var i = 0; i < _volumes.Count && length > 0; i++)
        {
            var end = _starts[i] + _volumes[i].Length;
            if (offset >= end)
            {
                continue;
            }

            var take = Math.Min(length, end - offset);
            if (take > 0)
            {
                ranges.Add(new ArchiveByteRange(i, offset - _starts[i], take));
            }

            offset += take;
            length -= take;
        }

        return ranges;
    }
}
