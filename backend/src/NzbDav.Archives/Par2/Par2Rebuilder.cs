namespace NzbDav.Archives.Par2;

/// <summary>
/// Rebuilds the missing input slices of one recovery set with PAR 2.0's Reed-Solomon code, from the
/// slices that survive and as many recovery slices. Everything streams: the recovery slices are added
/// first, then each surviving input slice once, in any order, and only one accumulator per recovery
/// slice is held. Accumulator r ends as R(e_r) + Σ_present c_i^e_r·D_i = Σ_missing c_m^e_r·D_m, so
/// the missing slices are the inverse of that k×k matrix applied to k of the accumulators; keeping a
/// few more recovery slices than missing ones lets a choice whose matrix is singular be replaced
/// without reading the set again.
/// </summary>
public sealed class Par2Rebuilder
{
    // The combination's column blocks: every accumulator's block is copied aside, then overwritten.
    private const int BlockBytes = 64 * 1024;

    private readonly ushort[] _constants;
    private readonly int[] _missing;
    private readonly HashSet<int> _lost;
    private readonly List<uint> _exponents = [];
    private readonly List<byte[]> _accumulators = [];
    private readonly List<bool> _usable = [];
    private readonly bool[] _inputAdded;
    private readonly int _maxRecovery;
    private int _inputsAdded;

    /// <param name="sliceCount">Input slices in the recovery set (every file's, in the set's order).</param>
    /// <param name="sliceSize">The set's slice size in bytes (a multiple of 4).</param>
    /// <param name="missing">The input slices to rebuild.</param>
    /// <param name="maxRecoverySlices">The most recovery slices that will be added: the missing ones and a margin.</param>
    public Par2Rebuilder(int sliceCount, int sliceSize, IReadOnlyCollection<int> missing, int maxRecoverySlices)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(sliceCount);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(sliceSize);
        ArgumentNullException.ThrowIfNull(missing);
        if (sliceSize % 4 != 0)
        {
            throw new ArgumentException("PAR 2.0 slices are a multiple of 4 bytes, got " + sliceSize + ".", nameof(sliceSize));
        }

        _missing = missing.Distinct().Order().ToArray();
        if (_missing.Length == 0 || _missing[0] < 0 || _missing[^1] >= sliceCount)
        {
            throw new ArgumentException("The slices to rebuild must be among the set's " + sliceCount + ".", nameof(missing));
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(maxRecoverySlices, _missing.Length);
        _maxRecovery = maxRecoverySlices;
        _constants = Galois16.InputConstants(sliceCount);
        _lost = [.. _missing];

        SliceSize = sliceSize;
        _inputAdded = new bool[sliceCount];
    }

    public int SliceSize { get; }

    /// <summary>The input slices being rebuilt, ascending.</summary>
    public IReadOnlyList<int> Missing => _missing;

    /// <summary>Bytes of accumulators held (the repair's memory, beside one slice being read).</summary>
    public long AccumulatorBytes => (long)_accumulators.Count * SliceSize;

    /// <summary>Recovery slices added and still usable.</summary>
    public int RecoveryCount => _usable.Count(u => u);

    /// <summary>
    /// Adds surviving input slice <paramref name="index"/>; <paramref name="data"/> is the slice, or
    /// less for a file's last slice (PAR2 pads it with zeros).
    /// </summary>
    public void AddInput(int index, ReadOnlySpan<byte> data)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, _inputAdded.Length);
        if (data.Length > SliceSize)
        {
            throw new ArgumentException("A slice is at most " + SliceSize + " bytes, got " + data.Length + ".", nameof(data));
        }

        if (_lost.Contains(index))
        {
            throw new InvalidOperationException("Input slice " + index + " is one being rebuilt.");
        }

        if (_inputAdded[index])
        {
            throw new InvalidOperationException("Input slice " + index + " was added already.");
        }

        // An odd-length last slice: its last byte is the low byte of a word whose high byte is padding.
        Span<byte> lastWord = stackalloc byte[2];
        var even = data[..(data.Length & ~1)];
        var odd = (data.Length & 1) != 0;
        if (odd)
        {
            lastWord[0] = data[^1];
            lastWord[1] = 0;
        }

        var constant = _constants[index];
        for (var r = 0; r < _exponents.Count; r++)
        {
            var region = new Galois16Region(Galois16.Power(constant, _exponents[r]));
            region.MultiplyAdd(even, _accumulators[r]);
            if (odd)
            {
                region.MultiplyAdd(lastWord, _accumulators[r].AsSpan(even.Length));
            }
        }

        _inputAdded[index] = true;
        _inputsAdded++;
    }

    /// <summary>
    /// Adds the recovery slice with <paramref name="exponent"/> (its packet already checked). Recovery
    /// slices come first: each input slice added afterwards is accumulated against every one of them.
    /// </summary>
    public void AddRecovery(uint exponent, ReadOnlySpan<byte> data)
    {
        if (_inputsAdded > 0)
        {
            throw new InvalidOperationException("Recovery slices are added before the input slices.");
        }

        if (exponent >= Galois16.Order)
        {
            throw new ArgumentOutOfRangeException(nameof(exponent), "A recovery slice's exponent is below 65535.");
        }

        if (data.Length != SliceSize)
        {
            throw new ArgumentException("A recovery slice is " + SliceSize + " bytes, got " + data.Length + ".", nameof(data));
        }

        if (_exponents.Contains(exponent))
        {
            return; // the same slice from another volume
        }

        if (_exponents.Count == _maxRecovery)
        {
            throw new InvalidOperationException("More than the " + _maxRecovery + " recovery slices planned were added.");
        }

        _exponents.Add(exponent);
        _accumulators.Add(data.ToArray());
        _usable.Add(true);
    }

    /// <summary>
    /// Solves for the missing slices once every surviving input slice and enough recovery slices were
    /// added. On success <paramref name="slices"/> holds each missing slice (full slice size, in
    /// <see cref="Missing"/>'s order; the accumulators' memory, now theirs), else
    /// <paramref name="failure"/> says why. Called once.
    /// </summary>
    public bool TryRebuild(out IReadOnlyList<byte[]> slices, out string? failure)
    {
        slices = [];
        var inputsExpected = _inputAdded.Length - _missing.Length;
        if (_inputsAdded != inputsExpected)
        {
            var first = Enumerable.Range(0, _inputAdded.Length).First(i => !_inputAdded[i] && !_lost.Contains(i));
            failure = "input slice " + first + " was never read (" + (inputsExpected - _inputsAdded) + " of the surviving slices are missing)";
            return false;
        }

        var candidates = Enumerable.Range(0, _exponents.Count).Where(r => _usable[r]).ToList();
        var k = _missing.Length;
        if (candidates.Count < k)
        {
            failure = "not enough recovery data: need " + k + ", have " + candidates.Count;
            return false;
        }

        var chosen = candidates.Take(k).ToList();
        var spare = new Queue<int>(candidates.Skip(k));
        ushort[]? inverse;
        while (true)
        {
            var matrix = new ushort[k * k];
            for (var row = 0; row < k; row++)
            {
                for (var column = 0; column < k; column++)
                {
                    matrix[(row * k) + column] = Galois16.Power(_constants[_missing[column]], _exponents[chosen[row]]);
                }
            }

            inverse = Galois16Matrix.Invert(matrix, k, out var singular);
            if (inverse is not null)
            {
                break;
            }

            if (spare.Count == 0)
            {
                failure = "the recovery slices at hand give a singular matrix (need one more than the " + candidates.Count + " read)";
                return false;
            }

            chosen[singular] = spare.Dequeue();
        }

        Combine(inverse, chosen);
        var rebuilt = new byte[k][];
        for (var m = 0; m < k; m++)
        {
            rebuilt[m] = _accumulators[chosen[m]];
        }

        slices = rebuilt;
        failure = null;
        return true;
    }

    // Missing slice m = Σ_r inverse[m, r] · accumulator[chosen[r]], block by block: each block of the
    // chosen accumulators is copied aside and then overwritten with the slices' block, in place.
    private void Combine(ushort[] inverse, List<int> chosen)
    {
        var k = chosen.Count;
        var block = Math.Min(BlockBytes, SliceSize);
        var aside = new byte[k][];
        for (var r = 0; r < k; r++)
        {
            aside[r] = new byte[block];
        }

        var regions = new Galois16Region[k * k];
        for (var i = 0; i < regions.Length; i++)
        {
            regions[i] = new Galois16Region(inverse[i]);
        }

        for (var start = 0; start < SliceSize; start += block)
        {
            var length = Math.Min(block, SliceSize - start);
            for (var r = 0; r < k; r++)
            {
                _accumulators[chosen[r]].AsSpan(start, length).CopyTo(aside[r]);
            }

            for (var m = 0; m < k; m++)
            {
                var target = _accumulators[chosen[m]].AsSpan(start, length);
                target.Clear();
                for (var r = 0; r < k; r++)
                {
                    regions[(m * k) + r].MultiplyAdd(aside[r].AsSpan(0, length), target);
                }
            }
        }
    }
}
