namespace NzbDav.Streaming.Combined;

/// <summary>
/// The logical layout of a <see cref="CombinedStream"/>: the non-empty parts with their start
/// offsets, and a binary search from a logical position to the part holding it.
/// </summary>
internal sealed class CombinedPartMap
{
    private readonly CombinedStreamPart[] _parts;
    private readonly long[] _starts;
    private readonly int[] _callerIndexes;

    public CombinedPartMap(IEnumerable<CombinedStreamPart> parts)
    {
        ArgumentNullException.ThrowIfNull(parts);
        var kept = new List<CombinedStreamPart>();
        var starts = new List<long>();
        var callerIndexes = new List<int>();
        long total = 0;
        var callerIndex = -1;
        foreach (var part in parts)
        {
            callerIndex++;
            if (part is null)
            {
                throw new ArgumentException("The part list contains null.", nameof(parts));
            }

            // Empty parts occupy no logical bytes, so they are never located and never opened.
            if (part.Length == 0)
            {
                continue;
            }

            if (total > long.MaxValue - part.Length)
            {
                throw new ArgumentException("The parts' lengths add up to more than a stream can address.", nameof(parts));
            }

            kept.Add(part);
            starts.Add(total);
            callerIndexes.Add(callerIndex);
            total += part.Length;
        }

        _parts = [.. kept];
        _starts = [.. starts];
        _callerIndexes = [.. callerIndexes];
        Length = total;
    }

    /// <summary>Sum of all part lengths.</summary>
    public long Length { get; }

    /// <summary>Non-empty parts.</summary>
    public int Count => _parts.Length;

    public CombinedStreamPart this[int index] => _parts[index];

    public long StartOf(int index) => _starts[index];

    /// <summary>The part's position in the caller's list (empty parts included), for error messages.</summary>
    public int CallerIndexOf(int index) => _callerIndexes[index];

    /// <summary>The index of the part holding <paramref name="position"/> (0 ≤ position &lt; Length).</summary>
    public int IndexOf(long position)
    {
        var found = Array.BinarySearch(_starts, position);

        // A miss gives the complement of the next larger start: the holder is the one before it.
        return found >= 0 ? found : ~found - 1;
    }
}
