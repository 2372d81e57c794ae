using NzbDav.Archives.Release;

namespace NzbDav.Archives.Par2;

/// <summary>A slice's checksums from the set's IFSC packet: MD5 and CRC-32 of the slice, zero-padded to the slice size.</summary>
public readonly record struct Par2SliceChecksum(Hash16 Md5, uint Crc32);

/// <summary>One file of a recovery set: its description, where its slices start among the set's, and their checksums.</summary>
public sealed record Par2SetFile(Par2FileDescription Description, int FirstSlice, IReadOnlyList<Par2SliceChecksum> Checksums)
{
    public int SliceCount => Checksums.Count;
}

/// <summary>A recovery slice found in a volume: its exponent, and where its data lies in that volume.</summary>
public sealed record Par2RecoverySliceInfo(uint Exponent, string Volume, long DataOffset);

/// <summary>
/// What a repair needs to know of a recovery set: the slice size, the protected files in the set's
/// order (input slices are numbered across them in that order) with every slice's checksums, and the
/// recovery slices the volumes read so far hold.
/// </summary>
public sealed class Par2RecoverySet
{
    internal Par2RecoverySet(Hash16 id, long sliceSize, IReadOnlyList<Par2SetFile> files, IReadOnlyList<Par2RecoverySliceInfo> recovery)
    {
        Id = id;
        SliceSize = sliceSize;
        Files = files;
        RecoverySlices = recovery;
        SliceCount = files.Count == 0 ? 0 : files[^1].FirstSlice + files[^1].SliceCount;
    }

    public Hash16 Id { get; }

    public long SliceSize { get; }

    public IReadOnlyList<Par2SetFile> Files { get; }

    public int SliceCount { get; }

    /// <summary>Distinct recovery slices found (by exponent), in the order found.</summary>
    public IReadOnlyList<Par2RecoverySliceInfo> RecoverySlices { get; }

    /// <summary>The file with this name (as the set names it), or null.</summary>
    public Par2SetFile? FindFile(string name) =>
        Files.FirstOrDefault(f => string.Equals(f.Description.Name, name, StringComparison.Ordinal));

    /// <summary>The set's slices that bytes [<paramref name="start"/>, <paramref name="end"/>) of <paramref name="file"/> touch.</summary>
    public IEnumerable<int> SlicesTouching(Par2SetFile file, long start, long end)
    {
        ArgumentNullException.ThrowIfNull(file);
        start = Math.Max(0, start);
        end = Math.Min(file.Description.Length, end);
        if (end <= start)
        {
            yield break;
        }

        for (var slice = (int)(start / SliceSize); slice <= (int)((end - 1) / SliceSize); slice++)
        {
            yield return file.FirstSlice + slice;
        }
    }

    /// <summary>The file slice <paramref name="index"/> belongs to, its offset in that file and its length there.</summary>
    public (Par2SetFile File, long Offset, int Length) Locate(int index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, SliceCount);
        foreach (var file in Files)
        {
            if (index < file.FirstSlice + file.SliceCount)
            {
                var offset = (index - file.FirstSlice) * SliceSize;
                return (file, offset, (int)Math.Min(SliceSize, file.Description.Length - offset));
            }
        }

        throw new ArgumentOutOfRangeException(nameof(index));
    }
}
