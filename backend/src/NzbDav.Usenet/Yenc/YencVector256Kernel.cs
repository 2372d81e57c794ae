using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Data-line decoding 32 bytes at a time (AVX2). Handles plain blocks and blocks whose only special
/// bytes are ordinary escapes and line breaks; stops in front of anything else (a '.' or "=y" at a
/// line start, an escaped '=', CR or LF) and leaves it to the scalar state machine.
/// </summary>
internal static unsafe class YencVector256Kernel
{
    private const int Block = 32;

    // Fully optimized from the first call: tiered JIT otherwise leaves this hot loop in tier-0 code
    // for the whole of a short run (a benchmark, the first minutes of a stream) at a third the speed.
    /// <summary>
    /// Decodes blocks from <paramref name="i"/>/<paramref name="o"/> on, carrying the line-start and
    /// pending-escape states; returns when a block needs the scalar path or either span runs short.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Decode(ReadOnlySpan<byte> src, Span<byte> dst, ref int i, ref int o, ref bool lineStart, ref bool escape)
    {
        if (!Avx2.IsSupported)
        {
            return;
        }
        var equals = Vector256.Create((byte)'=');
        var cr = Vector256.Create((byte)'\r');
        var lf = Vector256.Create((byte)'\n');
        var offset = Vector256.Create((byte)42);
        var escapeOffset = Vector256.Create((byte)64);
        // Spreads a 32-bit mask so byte k of the vector can test bit k.
        var spread = Vector256.Create(0UL, 0x0101010101010101UL, 0x0202020202020202UL, 0x0303030303030303UL).AsByte();
        var bitOfByte = Vector256.Create(0x8040201008040201UL).AsByte();

        fixed (byte* s0 = src)
        fixed (byte* d0 = dst)
        {
            var p = i;
            var q = o;
            var srcEnd = src.Length - Block; // the look-ahead load reads one byte past a block
            var dstEnd = dst.Length - Block;
            var esc = escape ? 1u : 0u;
            var ls = lineStart ? 1u : 0u;
            while (p < srcEnd && q <= dstEnd)
            {
                var v = Vector256.Load(s0 + p);
                var isEq = Vector256.Equals(v, equals);
                var isLf = Vector256.Equals(v, lf);
                var special = (isEq | isLf | Vector256.Equals(v, cr)).ExtractMostSignificantBits();
                if ((special | esc | ls) == 0)
                {
                    Vector256.Store(v - offset, d0 + q);
                    p += Block;
                    q += Block;
                    continue;
                }

                var eqMask = isEq.ExtractMostSignificantBits();
                var lfMask = isLf.ExtractMostSignificantBits();
                var escaped = (eqMask << 1) | esc;
                var lineStarts = (lfMask << 1) | ls;
                // An escaped '=' (chains of '=') or an escaped CR/LF (a '=' ending a line) need the
                // scalar rules; so do line starts with '.' (stuffing, terminator) or "=y" (keyword).
                if ((escaped & special) != 0)
                {
                    break;
                }
                if (lineStarts != 0)
                {
                    var dots = Vector256.Equals(v, Vector256.Create((byte)'.')).ExtractMostSignificantBits();
                    var nextIsY = Vector256.Equals(Vector256.Load(s0 + p + 1), Vector256.Create((byte)'y')).ExtractMostSignificantBits();
                    if ((lineStarts & (dots | (eqMask & nextIsY))) != 0)
                    {
                        break;
                    }
                }

                var escapedBytes = Vector256.Equals(Avx2.Shuffle(Vector256.Create(escaped).AsByte(), spread) & bitOfByte, bitOfByte);
                var value = v - offset - (escapedBytes & escapeOffset);
                var keep = ~special;
                var packed = Avx2.Shuffle(value, Vector256.Create(
                    YencCompactTable.For(keep & 0xFF),
                    YencCompactTable.For((keep >> 8) & 0xFF) + YencCompactTable.UpperHalf,
                    YencCompactTable.For((keep >> 16) & 0xFF),
                    YencCompactTable.For(keep >> 24) + YencCompactTable.UpperHalf).AsByte());
                var n0 = BitOperations.PopCount(keep & 0xFF);
                var n01 = BitOperations.PopCount(keep & 0xFFFF);
                var n012 = BitOperations.PopCount(keep & 0xFFFFFF);
                var low = packed.GetLower();
                var high = packed.GetUpper();
                var d = d0 + q;
                Vector128.Store(low, d);
                Sse2.StoreHigh((double*)(d + n0), low.AsDouble());
                Vector128.Store(high, d + n01);
                Sse2.StoreHigh((double*)(d + n012), high.AsDouble());

                q += BitOperations.PopCount(keep);
                p += Block;
                esc = eqMask >> 31;
                ls = lfMask >> 31;
            }
            i = p;
            o = q;
            escape = esc != 0;
            lineStart = ls != 0;
        }
    }
}
