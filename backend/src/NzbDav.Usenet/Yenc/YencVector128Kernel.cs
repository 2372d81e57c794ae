using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Data-line decoding 16 bytes at a time (SSSE3); the same rules as <see cref="YencVector256Kernel"/>
/// for CPUs without AVX2.
/// </summary>
internal static unsafe class YencVector128Kernel
{
    private const int Block = 16;

    // Fully optimized from the first call: tiered JIT otherwise leaves this hot loop in tier-0 code
    // for the whole of a short run (a benchmark, the first minutes of a stream) at a third the speed.
    /// <summary>
    /// Decodes blocks from <paramref name="i"/>/<paramref name="o"/> on, carrying the line-start and
    /// pending-escape states; returns when a block needs the scalar path or either span runs short.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Decode(ReadOnlySpan<byte> src, Span<byte> dst, ref int i, ref int o, ref bool lineStart, ref bool escape)
    {
        if (!Ssse3.IsSupported)
        {
            return;
        }
        var equals = Vector128.Create((byte)'=');
        var cr = Vector128.Create((byte)'\r');
        var lf = Vector128.Create((byte)'\n');
        var offset = Vector128.Create((byte)42);
        var escapeOffset = Vector128.Create((byte)64);
        var spread = Vector128.Create(0UL, 0x0101010101010101UL).AsByte();
        var bitOfByte = Vector128.Create(0x8040201008040201UL).AsByte();

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
                var v = Vector128.Load(s0 + p);
                var isEq = Vector128.Equals(v, equals);
                var isLf = Vector128.Equals(v, lf);
                var special = (isEq | isLf | Vector128.Equals(v, cr)).ExtractMostSignificantBits();
                if ((special | esc | ls) == 0)
                {
                    Vector128.Store(v - offset, d0 + q);
                    p += Block;
                    q += Block;
                    continue;
                }

                var eqMask = isEq.ExtractMostSignificantBits();
                var lfMask = isLf.ExtractMostSignificantBits();
                var escaped = ((eqMask << 1) | esc) & 0xFFFF;
                var lineStarts = ((lfMask << 1) | ls) & 0xFFFF;
                // Same hand-off rules as the 256-bit kernel: escaped '='/CR/LF, '.' or "=y" at a line start.
                if ((escaped & special) != 0)
                {
                    break;
                }
                if (lineStarts != 0)
                {
                    var dots = Vector128.Equals(v, Vector128.Create((byte)'.')).ExtractMostSignificantBits();
                    var nextIsY = Vector128.Equals(Vector128.Load(s0 + p + 1), Vector128.Create((byte)'y')).ExtractMostSignificantBits();
                    if ((lineStarts & (dots | (eqMask & nextIsY))) != 0)
                    {
                        break;
                    }
                }

                var escapedBytes = Vector128.Equals(Ssse3.Shuffle(Vector128.Create((ushort)escaped).AsByte(), spread) & bitOfByte, bitOfByte);
                var value = v - offset - (escapedBytes & escapeOffset);
                var keep = ~special & 0xFFFF;
                var packed = Ssse3.Shuffle(value, Vector128.Create(
                    YencCompactTable.For(keep & 0xFF),
                    YencCompactTable.For(keep >> 8) + YencCompactTable.UpperHalf).AsByte());
                var d = d0 + q;
                Vector128.Store(packed, d);
                Sse2.StoreHigh((double*)(d + BitOperations.PopCount(keep & 0xFF)), packed.AsDouble());

                q += BitOperations.PopCount(keep);
                p += Block;
                esc = eqMask >> 15;
                ls = lfMask >> 15;
            }
            i = p;
            o = q;
            escape = esc != 0;
            lineStart = ls != 0;
        }
    }
}
