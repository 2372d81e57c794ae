using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Carry-less-multiply folding for the reflected CRC-32 polynomial 0xEDB88320 (the method of
/// Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ"). A 128-bit block read
/// from memory holds a polynomial whose low quadword is the high-degree half H and whose high
/// quadword is the low half L; moving it T bits further along the message is
/// H·(x^(T+32) mod P) ⊕ L·(x^(T−32) mod P), two 64×33-bit multiplies whose products already carry
/// the x^32 the reflected representation loses. The constants are computed here, not tabulated.
/// </summary>
internal static unsafe class Crc32Fold
{
    public const int Wide512Bytes = 256;
    public const int Wide256Bytes = 128;
    public const int Wide128Bytes = 64;

    private const uint ReflectedPolynomial = 0xEDB88320;

    private static readonly uint[] Table = BuildTable();

    // Each pair moves a 128-bit block forward by the named number of bits.
    private static readonly Vector128<ulong> Forward128 = Pair(128);
    private static readonly Vector128<ulong> Forward256 = Pair(256);
    private static readonly Vector128<ulong> Forward384 = Pair(384);
    private static readonly Vector128<ulong> Forward512 = Pair(512);
    private static readonly Vector128<ulong> Forward768 = Pair(768);
    private static readonly Vector128<ulong> Forward1024 = Pair(1024);
    private static readonly Vector128<ulong> Forward1536 = Pair(1536);
    private static readonly Vector128<ulong> Forward2048 = Pair(2048);

    public static bool Has512 => Pclmulqdq.V512.IsSupported && Vector512.IsHardwareAccelerated;

    public static bool Has256 => Pclmulqdq.V256.IsSupported;

    /// <summary>Moves a 128-bit remainder one block (128 bits) along.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static Vector128<ulong> By128(Vector128<ulong> v) => Fold(v, Forward128);

    /// <summary>
    /// Folds <paramref name="blocks"/> × 256 bytes at <paramref name="p"/> onto
    /// <paramref name="remainder"/> (the bytes just before them) with four 512-bit accumulators;
    /// returns the remainder that ends where they end.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static Vector128<ulong> Wide512(byte* p, int blocks, Vector128<ulong> remainder)
    {
        var step = Vector512.Create(Forward2048);
        var a0 = Vector512.Load(p).AsUInt64() ^ By128(remainder).ToVector256().ToVector512();
        var a1 = Vector512.Load(p + 64).AsUInt64();
        var a2 = Vector512.Load(p + 128).AsUInt64();
        var a3 = Vector512.Load(p + 192).AsUInt64();
        for (var b = 1; b < blocks; b++)
        {
            p += Wide512Bytes;
            a0 = Fold(a0, step) ^ Vector512.Load(p).AsUInt64();
            a1 = Fold(a1, step) ^ Vector512.Load(p + 64).AsUInt64();
            a2 = Fold(a2, step) ^ Vector512.Load(p + 128).AsUInt64();
            a3 = Fold(a3, step) ^ Vector512.Load(p + 192).AsUInt64();
        }
        var a = Fold(a0, Vector512.Create(Forward1536)) ^ Fold(a1, Vector512.Create(Forward1024)) ^ Fold(a2, Vector512.Create(Forward512)) ^ a3;
        // Lane i of four moves (3 − i) × 128 bits to meet the last lane; the last lane's constant
        // is zero so it drops out of the products and joins as it is.
        var lanes = Vector512.Create(Vector256.Create(Forward384, Forward256), Vector256.Create(Forward128, Vector128<ulong>.Zero));
        var moved = Fold(a, lanes);
        return moved.GetLower().GetLower() ^ moved.GetLower().GetUpper() ^ moved.GetUpper().GetLower() ^ a.GetUpper().GetUpper();
    }

    /// <summary>As <see cref="Wide512"/> with four 256-bit accumulators over 128-byte blocks.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static Vector128<ulong> Wide256(byte* p, int blocks, Vector128<ulong> remainder)
    {
        var step = Vector256.Create(Forward1024);
        var a0 = Vector256.Load(p).AsUInt64() ^ By128(remainder).ToVector256();
        var a1 = Vector256.Load(p + 32).AsUInt64();
        var a2 = Vector256.Load(p + 64).AsUInt64();
        var a3 = Vector256.Load(p + 96).AsUInt64();
        for (var b = 1; b < blocks; b++)
        {
            p += Wide256Bytes;
            a0 = Fold(a0, step) ^ Vector256.Load(p).AsUInt64();
            a1 = Fold(a1, step) ^ Vector256.Load(p + 32).AsUInt64();
            a2 = Fold(a2, step) ^ Vector256.Load(p + 64).AsUInt64();
            a3 = Fold(a3, step) ^ Vector256.Load(p + 96).AsUInt64();
        }
        var a = Fold(a0, Vector256.Create(Forward768)) ^ Fold(a1, Vector256.Create(Forward512)) ^ Fold(a2, Vector256.Create(Forward256)) ^ a3;
        return Fold(a.GetLower(), Forward128) ^ a.GetUpper();
    }

    /// <summary>As <see cref="Wide512"/> with four 128-bit accumulators over 64-byte blocks.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static Vector128<ulong> Wide128(byte* p, int blocks, Vector128<ulong> remainder)
    {
        var step = Forward512;
        var a0 = Vector128.Load(p).AsUInt64() ^ By128(remainder);
        var a1 = Vector128.Load(p + 16).AsUInt64();
        var a2 = Vector128.Load(p + 32).AsUInt64();
        var a3 = Vector128.Load(p + 48).AsUInt64();
        for (var b = 1; b < blocks; b++)
        {
            p += Wide128Bytes;
            a0 = Fold(a0, step) ^ Vector128.Load(p).AsUInt64();
            a1 = Fold(a1, step) ^ Vector128.Load(p + 16).AsUInt64();
            a2 = Fold(a2, step) ^ Vector128.Load(p + 32).AsUInt64();
            a3 = Fold(a3, step) ^ Vector128.Load(p + 48).AsUInt64();
        }
        return Fold(a0, Forward384) ^ Fold(a1, Forward256) ^ Fold(a2, Forward128) ^ a3;
    }

    /// <summary>The table-driven update of a raw (not inverted) CRC register, for the few bytes the folds leave.</summary>
    public static uint Bytewise(uint state, ReadOnlySpan<byte> data)
    {
        var table = Table;
        foreach (var b in data)
        {
            state = table[(byte)(state ^ b)] ^ (state >> 8);
        }
        return state;
    }

    /// <summary>The reflected x^n mod P, as the 33-bit operand the folds multiply by (bit j ↔ x^(32−j)).</summary>
    internal static ulong Constant(int n)
    {
        // Reflected: bit j is the coefficient of x^(31−j), so multiplying by x is a right shift
        // and a carry out of x^31 brings in the polynomial.
        var r = 0x80000000u;
        for (var i = 0; i < n; i++)
        {
            r = (r & 1) != 0 ? (r >> 1) ^ ReflectedPolynomial : r >> 1;
        }
        return (ulong)r << 1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ulong> Fold(Vector128<ulong> v, Vector128<ulong> k)
        => Pclmulqdq.CarrylessMultiply(v, k, 0x00) ^ Pclmulqdq.CarrylessMultiply(v, k, 0x11);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ulong> Fold(Vector256<ulong> v, Vector256<ulong> k)
        => Pclmulqdq.V256.CarrylessMultiply(v, k, 0x00) ^ Pclmulqdq.V256.CarrylessMultiply(v, k, 0x11);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<ulong> Fold(Vector512<ulong> v, Vector512<ulong> k)
        => Pclmulqdq.V512.CarrylessMultiply(v, k, 0x00) ^ Pclmulqdq.V512.CarrylessMultiply(v, k, 0x11);

    private static Vector128<ulong> Pair(int bits) => Vector128.Create(Constant(bits + 32), Constant(bits - 32));

    private static uint[] BuildTable()
    {
        var table = new uint[256];
        for (var i = 0u; i < 256; i++)
        {
            var c = i;
            for (var bit = 0; bit < 8; bit++)
            {
                c = (c & 1) != 0 ? (c >> 1) ^ ReflectedPolynomial : c >> 1;
            }
            table[i] = c;
        }
        return table;
    }
}
