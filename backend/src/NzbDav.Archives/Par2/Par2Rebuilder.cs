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
/// <remarks>
/// Those accumulators are as big as the data lost, which no single pass can hold less of. When they
/// would pass the memory budget, the slices go to a scratch file as they arrive instead, and the
/// rebuild runs over it in column stripes (every word column of the code is independent): per
/// stripe, the chosen recovery slices' columns, each input's columns multiplied in, the inverse
/// applied, the rebuilt columns written out. Each stored byte is read once; memory is the stripes.
/// </remarks>
public sealed class Par2Rebuilder : IDisposable
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
    private readonly long _memoryBudget;
    private readonly List<long> _recoveryAt = [];
    private readonly List<(int Index, long At, int Length)> _inputsAt = [];
    private Par2Scratch? _scratch;
    private int _inputsAdded;

    /// <param name="sliceCount">Input slices in the recovery set (every file's, in the set's order).</param>
    /// <param name="sliceSize">The set's slice size in bytes (a multiple of 4).</param>
    /// <param name="missing">The input slices to rebuild.</param>
    /// <param name="maxRecoverySlices">The most recovery slices that will be added: the missing ones and a margin.</param>
    /// <param name="memoryBudget">Bytes the accumulators may take; past it the slices are stored in <paramref name="scratchDirectory"/>.</param>
    /// <param name="scratchDirectory">Where the slices go when the accumulators would not fit (a file of about the set's size).</param>
    public Par2Rebuilder(int sliceCount, int sliceSize, IReadOnlyCollection<int> missing, int maxRecoverySlices, long memoryBudget = long.MaxValue, string? scratchDirectory = null)
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
        _memoryBudget = memoryBudget;
        if ((long)maxRecoverySlices * sliceSize > memoryBudget)
        {
            if (scratchDirectory is null)
            {
                throw new ArgumentException("The repair needs " + ((long)maxRecoverySlices * sliceSize) + " bytes of accumulators, over the budget of " + memoryBudget + ", and has no scratch directory.", nameof(scratchDirectory));
            }

            // Two stripe buffers beside the k accumulators' stripes: one input's columns and one rebuilt slice's.
            ArgumentOutOfRangeException.ThrowIfLessThan(memoryBudget, (maxRecoverySlices + 2) * 64L, nameof(memoryBudget));
            _scratch = new Par2Scratch(scratchDirectory);
            Spilled = true;
        }
    }

    /// <summary>True when the slices go to a scratch file and the rebuild runs in stripes (the accumulators would pass the budget).</summary>
    public bool Spilled { get; }

    public int SliceSize { get; }

    /// <summary>The input slices being rebuilt, ascending.</summary>
    public IReadOnlyList<int> Missing => _missing;

    /// <summary>Bytes of accumulators held (the repair's memory, beside one slice being read); stored ones are on disk.</summary>
    public long AccumulatorBytes => Spilled ? 0 : (long)_accumulators.Count * SliceSize;

    /// <summary>Bytes stored in the scratch file so far (0 when nothing spills).</summary>
    public long ScratchBytes => _scratch?.Length ?? 0;

    /// <summary>Recovery slices added and still usable.</summary>
    public int RecoveryCount => _usable.Count(u => u);

    public void Dispose()
    {
        _scratch?.Dispose();
        _scratch = null;
    }

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

        if (Spilled)
        {
            var scratch = _scratch ?? throw new InvalidOperationException("The rebuild is over.");
            _inputsAt.Add((index, scratch.Append(data), data.Length));
            _inputAdded[index] = true;
            _inputsAdded++;
            return;
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
        if (Spilled)
        {
            var scratch = _scratch ?? throw new InvalidOperationException("The rebuild is over.");
            _recoveryAt.Add(scratch.Append(data));
            _accumulators.Add([]);
        }
        else
        {
            _accumulators.Add(data.ToArray());
        }

        _usable.Add(true);
    }

    /// <summary>
    /// Solves for the missing slices once every surviving input slice and enough recovery slices were
    /// added. On success <paramref name="slices"/> holds each missing slice (full slice size, in
    /// <see cref="Missing"/>'s order; the accumulators' memory or the scratch file, now theirs: dispose
    /// them), else <paramref name="failure"/> says why. Called once.
    /// </summary>
    public bool TryRebuild(out Par2RebuiltSlices? slices, out string? failure)
    {
        slices = null;
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

        failure = null;
        if (_scratch is { } scratch)
        {
            RebuildInStripes(scratch, inverse, chosen);
            _scratch = null;
            slices = new Par2RebuiltSlices(scratch, SliceSize, k);
            return true;
        }

        Combine(inverse, chosen);
        var rebuilt = new byte[k][];
        for (var m = 0; m < k; m++)
        {
            rebuilt[m] = _accumulators[chosen[m]];
        }

        slices = new Par2RebuiltSlices(rebuilt);
        return true;
    }

    // The stored slices, stripe by stripe: the k chosen recovery slices' columns are the accumulators,
    // every input's columns are multiplied into them, then the inverse makes the missing slices'
    // columns, which go to the scratch file's rebuilt area.
    private void RebuildInStripes(Par2Scratch scratch, ushort[] inverse, List<int> chosen)
    {
        var k = chosen.Count;
        var stripe = (int)Math.Min(SliceSize, _memoryBudget / (k + 2) / 64 * 64);
        var accumulators = new byte[k][];
        for (var r = 0; r < k; r++)
        {
            accumulators[r] = new byte[stripe];
        }

        var input = new byte[stripe];
        var output = new byte[stripe];
        var combine = new Galois16Region[k * k];
        for (var i = 0; i < combine.Length; i++)
        {
            combine[i] = new Galois16Region(inverse[i]);
        }

        var rebuiltAt = scratch.Reserve((long)k * SliceSize);
        for (var start = 0; start < SliceSize; start += stripe)
        {
            var width = Math.Min(stripe, SliceSize - start);
            for (var r = 0; r < k; r++)
            {
                scratch.Read(_recoveryAt[chosen[r]] + start, accumulators[r].AsSpan(0, width));
            }

            foreach (var (index, at, length) in _inputsAt)
            {
                if (length <= start)
                {
                    continue; // a short last slice: zeros from here on
                }

                var have = Math.Min(width, length - start);
                scratch.Read(at + start, input.AsSpan(0, have));
                // An odd end: the last word's high byte is padding.
                var words = have;
                if ((have & 1) != 0)
                {
                    input[have] = 0;
                    words++;
                }

                var constant = _constants[index];
                for (var r = 0; r < k; r++)
                {
                    new Galois16Region(Galois16.Power(constant, _exponents[chosen[r]])).MultiplyAdd(input.AsSpan(0, words), accumulators[r]);
                }
            }

            for (var m = 0; m < k; m++)
            {
                var target = output.AsSpan(0, width);
                target.Clear();
                for (var r = 0; r < k; r++)
                {
                    combine[(m * k) + r].MultiplyAdd(accumulators[r].AsSpan(0, width), target);
                }

                scratch.Write(rebuiltAt + ((long)m * SliceSize) + start, target);
            }
        }

        scratch.Rebuilt = rebuiltAt;
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

/// <summary>
/// The rebuilt slices of a repair, in memory or in the scratch file of a rebuild that ran in
/// stripes; read a slice's bytes with <see cref="Read"/>. Disposing deletes the scratch file.
/// </summary>
public sealed class Par2RebuiltSlices : IDisposable
{
    private readonly byte[][]? _slices;
    private readonly Par2Scratch? _scratch;
    private readonly long _sliceSize;

    internal Par2RebuiltSlices(byte[][] slices)
    {
        _slices = slices;
        Count = slices.Length;
    }

    internal Par2RebuiltSlices(Par2Scratch scratch, long sliceSize, int count)
    {
        _scratch = scratch;
        _sliceSize = sliceSize;
        Count = count;
    }

    public int Count { get; }

    /// <summary>Copies bytes of rebuilt slice <paramref name="slice"/> from <paramref name="offset"/> into <paramref name="destination"/>.</summary>
    public void Read(int slice, long offset, Span<byte> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(slice);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(slice, Count);
        if (_slices is not null)
        {
            _slices[slice].AsSpan(checked((int)offset), destination.Length).CopyTo(destination);
            return;
        }

        _scratch!.Read(_scratch.Rebuilt + (slice * _sliceSize) + offset, destination);
    }

    public void Dispose() => _scratch?.Dispose();
}

/// <summary>A repair's scratch file: stored slices appended as they arrive, read back by position; deleted when disposed.</summary>
internal sealed class Par2Scratch : IDisposable
{
    private readonly string _path;
    private readonly Microsoft.Win32.SafeHandles.SafeFileHandle _handle;
    private long _end;

    public Par2Scratch(string directory)
    {
        Directory.CreateDirectory(directory);
        _path = Path.Combine(directory, "par2-" + Guid.NewGuid().ToString("N") + ".scratch");
        _handle = File.OpenHandle(_path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, FileOptions.DeleteOnClose);
    }

    /// <summary>Where the rebuilt slices start, once the rebuild wrote them.</summary>
    public long Rebuilt { get; set; }

    /// <summary>Bytes stored or reserved.</summary>
    public long Length => _end;

    public long Append(ReadOnlySpan<byte> data)
    {
        var at = _end;
        RandomAccess.Write(_handle, data, at);
        _end += data.Length;
        return at;
    }

    public long Reserve(long bytes)
    {
        var at = _end;
        _end += bytes;
        return at;
    }

    public void Write(long at, ReadOnlySpan<byte> data) => RandomAccess.Write(_handle, data, at);

    public void Read(long at, Span<byte> destination)
    {
        var done = 0;
        while (done < destination.Length)
        {
            var read = RandomAccess.Read(_handle, destination[done..], at + done);
            if (read == 0)
            {
                // Past what was written: a short slice's padding.
                destination[done..].Clear();
                return;
            }

            done += read;
        }
    }

    public void Dispose()
    {
        _handle.Dispose();
        if (File.Exists(_path))
        {
            File.Delete(_path);
        }
    }
}
