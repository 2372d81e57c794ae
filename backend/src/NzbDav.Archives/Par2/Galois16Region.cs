using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace NzbDav.Archives.Par2;

/// <summary>
/// destination ^= factor × source over whole regions of little-endian 16-bit words, the one loop a
/// PAR2 repair spends its time in. With SSSE3/AVX2/AVX-512BW it is the split-table method: a product
/// by a constant is linear, so it is the XOR of the products of the word's four nibbles, each a lookup
/// in a 16-entry table (one for the product's low byte, one for its high byte) that a byte shuffle
/// does 16 lanes at a time. The words stay interleaved: low bytes look up their nibbles' products in
/// place and high bytes theirs, and the half of each product that belongs to the other byte of the
/// word is moved there by a 16-bit shift.
/// </summary>
internal sealed class Galois16Region
{
    private readonly Vector128<byte>[] _nibbleTables = new Vector128<byte>[8];
    private ushort[]? _low;
    private ushort[]? _high;

    /// <summary>The multiplier for <paramref name="factor"/> (64 products: a repair builds one per input slice and recovery slice).</summary>
    public Galois16Region(ushort factor)
    {
        Factor = factor;
        Span<byte> low = stackalloc byte[16];
        Span<byte> high = stackalloc byte[16];
        for (var nibble = 0; nibble < 4; nibble++)
        {
            for (var value = 0; value < 16; value++)
            {
                var product = Galois16.Multiply(factor, (ushort)(value << (4 * nibble)));
                low[value] = (byte)product;
                high[value] = (byte)(product >> 8);
            }

            _nibbleTables[2 * nibble] = Vector128.Create(low);
            _nibbleTables[(2 * nibble) + 1] = Vector128.Create(high);
        }
    }

    public ushort Factor { get; }

    /// <summary>destination ^= Factor × source, word by word; source's length must be even and at most destination's.</summary>
    public void MultiplyAdd(ReadOnlySpan<byte> source, Span<byte> destination) => MultiplyAdd(source, destination, Acceleration.Best);

    internal void MultiplyAdd(ReadOnlySpan<byte> source, Span<byte> destination, Acceleration acceleration)
    {
        if ((source.Length & 1) != 0)
        {
            throw new ArgumentException("A region of 16-bit words has an even length, got " + source.Length + ".", nameof(source));
        }

        if (destination.Length < source.Length)
        {
            throw new ArgumentException("The destination is shorter than the source.", nameof(destination));
        }

        if (Factor == 0)
        {
            return;
        }

        var done = 0;
        if (acceleration >= Acceleration.Avx512 && Avx512BW.IsSupported)
        {
            done = MultiplyAdd512(source, destination);
        }
        else if (acceleration >= Acceleration.Avx2 && Avx2.IsSupported)
        {
            done = MultiplyAdd256(source, destination);
        }
        else if (acceleration >= Acceleration.Ssse3 && Ssse3.IsSupported)
        {
            done = MultiplyAdd128(source, destination);
        }

        if (done == source.Length)
        {
            return;
        }

        if (source.Length - done < 64)
        {
            MultiplyAddWords(source[done..], destination[done..]);
        }
        else
        {
            MultiplyAddScalar(source[done..], destination[done..]);
        }
    }

    // The tail after the vectors: too short to pay for the byte tables.
    private void MultiplyAddWords(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var words = MemoryMarshal.Cast<byte, ushort>(source);
        var into = MemoryMarshal.Cast<byte, ushort>(destination[..source.Length]);
        for (var i = 0; i < words.Length; i++)
        {
            into[i] ^= Galois16.Multiply(Factor, words[i]);
        }
    }

    private void MultiplyAddScalar(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        if (_low is null || _high is null)
        {
            var lowTable = new ushort[256];
            var highTable = new ushort[256];
            for (var value = 0; value < 256; value++)
            {
                lowTable[value] = Galois16.Multiply(Factor, (ushort)value);
                highTable[value] = Galois16.Multiply(Factor, (ushort)(value << 8));
            }

            (_low, _high) = (lowTable, highTable);
        }

        var words = MemoryMarshal.Cast<byte, ushort>(source);
        var into = MemoryMarshal.Cast<byte, ushort>(destination[..source.Length]);
        var low = _low;
        var high = _high;
        for (var i = 0; i < words.Length; i++)
        {
            var word = words[i];
            into[i] ^= (ushort)(low[word & 0xFF] ^ high[word >> 8]);
        }
    }

    private int MultiplyAdd128(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var t = _nibbleTables;
        Vector128<byte> l0 = t[0], h0 = t[1], l1 = t[2], h1 = t[3], l2 = t[4], h2 = t[5], l3 = t[6], h3 = t[7];
        var nibble = Vector128.Create((byte)0x0F);
        var highBytes = Vector128.Create((ushort)0xFF00).AsByte();
        ref var from = ref MemoryMarshal.GetReference(source);
        ref var to = ref MemoryMarshal.GetReference(destination);
        var end = source.Length - Vector128<byte>.Count;
        var i = 0;
        for (; i <= end; i += Vector128<byte>.Count)
        {
            var data = Vector128.LoadUnsafe(ref from, (nuint)i);
            var n0 = data & nibble;
            var n1 = Vector128.ShiftRightLogical(data.AsUInt16(), 4).AsByte() & nibble;
            var fromLow = Ssse3.Shuffle(l0, n0) ^ Ssse3.Shuffle(l1, n1);
            var fromHigh = Ssse3.Shuffle(h2, n0) ^ Ssse3.Shuffle(h3, n1);
            var lowToHigh = Ssse3.Shuffle(h0, n0) ^ Ssse3.Shuffle(h1, n1);
            var highToLow = Ssse3.Shuffle(l2, n0) ^ Ssse3.Shuffle(l3, n1);
            var product = Vector128.ConditionalSelect(highBytes, fromHigh, fromLow)
                ^ Vector128.ShiftLeft(lowToHigh.AsUInt16(), 8).AsByte()
                ^ Vector128.ShiftRightLogical(highToLow.AsUInt16(), 8).AsByte();
            (Vector128.LoadUnsafe(ref to, (nuint)i) ^ product).StoreUnsafe(ref to, (nuint)i);
        }

        return i;
    }

    private int MultiplyAdd256(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var t = _nibbleTables;
        Vector256<byte> l0 = Broadcast(t[0]), h0 = Broadcast(t[1]), l1 = Broadcast(t[2]), h1 = Broadcast(t[3]);
        Vector256<byte> l2 = Broadcast(t[4]), h2 = Broadcast(t[5]), l3 = Broadcast(t[6]), h3 = Broadcast(t[7]);
        var nibble = Vector256.Create((byte)0x0F);
        var highBytes = Vector256.Create((ushort)0xFF00).AsByte();
        ref var from = ref MemoryMarshal.GetReference(source);
        ref var to = ref MemoryMarshal.GetReference(destination);
        var end = source.Length - Vector256<byte>.Count;
        var i = 0;
        for (; i <= end; i += Vector256<byte>.Count)
        {
            var data = Vector256.LoadUnsafe(ref from, (nuint)i);
            var n0 = data & nibble;
            var n1 = Vector256.ShiftRightLogical(data.AsUInt16(), 4).AsByte() & nibble;
            var fromLow = Avx2.Shuffle(l0, n0) ^ Avx2.Shuffle(l1, n1);
            var fromHigh = Avx2.Shuffle(h2, n0) ^ Avx2.Shuffle(h3, n1);
            var lowToHigh = Avx2.Shuffle(h0, n0) ^ Avx2.Shuffle(h1, n1);
            var highToLow = Avx2.Shuffle(l2, n0) ^ Avx2.Shuffle(l3, n1);
            var product = Vector256.ConditionalSelect(highBytes, fromHigh, fromLow)
                ^ Vector256.ShiftLeft(lowToHigh.AsUInt16(), 8).AsByte()
                ^ Vector256.ShiftRightLogical(highToLow.AsUInt16(), 8).AsByte();
            (Vector256.LoadUnsafe(ref to, (nuint)i) ^ product).StoreUnsafe(ref to, (nuint)i);
        }

        return i;
    }

    private int MultiplyAdd512(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var t = _nibbleTables;
        Vector512<byte> l0 = Broadcast4(t[0]), h0 = Broadcast4(t[1]), l1 = Broadcast4(t[2]), h1 = Broadcast4(t[3]);
        Vector512<byte> l2 = Broadcast4(t[4]), h2 = Broadcast4(t[5]), l3 = Broadcast4(t[6]), h3 = Broadcast4(t[7]);
        var nibble = Vector512.Create((byte)0x0F);
        var highBytes = Vector512.Create((ushort)0xFF00).AsByte();
        ref var from = ref MemoryMarshal.GetReference(source);
        ref var to = ref MemoryMarshal.GetReference(destination);
        var end = source.Length - Vector512<byte>.Count;
        var i = 0;
        for (; i <= end; i += Vector512<byte>.Count)
        {
            var data = Vector512.LoadUnsafe(ref from, (nuint)i);
            var n0 = data & nibble;
            var n1 = Vector512.ShiftRightLogical(data.AsUInt16(), 4).AsByte() & nibble;
            var fromLow = Avx512BW.Shuffle(l0, n0) ^ Avx512BW.Shuffle(l1, n1);
            var fromHigh = Avx512BW.Shuffle(h2, n0) ^ Avx512BW.Shuffle(h3, n1);
            var lowToHigh = Avx512BW.Shuffle(h0, n0) ^ Avx512BW.Shuffle(h1, n1);
            var highToLow = Avx512BW.Shuffle(l2, n0) ^ Avx512BW.Shuffle(l3, n1);
            var product = Vector512.ConditionalSelect(highBytes, fromHigh, fromLow)
                ^ Vector512.ShiftLeft(lowToHigh.AsUInt16(), 8).AsByte()
                ^ Vector512.ShiftRightLogical(highToLow.AsUInt16(), 8).AsByte();
            (Vector512.LoadUnsafe(ref to, (nuint)i) ^ product).StoreUnsafe(ref to, (nuint)i);
        }

        return i;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<byte> Broadcast(Vector128<byte> table) => Vector256.Create(table, table);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<byte> Broadcast4(Vector128<byte> table) => Vector512.Create(Broadcast(table), Broadcast(table));

    /// <summary>The widest instructions a multiply may use (the tests and benchmarks pin each one).</summary>
    internal enum Acceleration
    {
        Scalar,
        Ssse3,
        Avx2,
        Avx512,
        Best = Avx512,
    }
}
