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
    /// Decodes blocks from <paramref name="i"/>/<paramref name="o"/> on, updating the line-start and
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
        var dot = Vector128.Create((byte)'.');
        var y = Vector128.Create((byte)'y');
        var offset = Vector128.Create((byte)42);
        var escapeOffset = Vector128.Create((byte)64);

        fixed (ulong* shuffles = &YencCompactTable.First)
        fixed (byte* s0 = src)
        fixed (byte* d0 = dst)
        {
            var p = i;
            var q = o;
            if (!YencVectorEntry.PreviousByteMatchesState(s0, p, lineStart, escape))
            {
                return;
            }
            var srcEnd = src.Length - Block; // the look-ahead load reads one byte past a block
            var dstEnd = dst.Length - Block;
            while (p < srcEnd && q <= dstEnd)
            {
                var v = Vector128.Load(s0 + p);
                var previous = Vector128.Load(s0 + p - 1);
                var isEq = Vector128.Equals(v, equals);
                var special = isEq | Vector128.Equals(v, lf) | Vector128.Equals(v, cr);
                var escaped = Vector128.Equals(previous, equals);
                var startsLine = Vector128.Equals(previous, lf);
                var nextIsY = Vector128.Equals(Vector128.Load(s0 + p + 1), y);
                // Same hand-off rules as the 256-bit kernel: escaped '='/CR/LF, '.' or "=y" at a line start.
                var unusual = (escaped & special) | (startsLine & (Vector128.Equals(v, dot) | (isEq & nextIsY)));
                if (unusual != Vector128<byte>.Zero)
                {
                    break;
                }

                var value = v - offset - (escaped & escapeOffset);
                var keep = ~special.ExtractMostSignificantBits() & 0xFFFF;
                var indices = Sse2.LoadHigh(Sse2.LoadScalarVector128(shuffles + (keep & 0xFF)).AsDouble(), (double*)(shuffles + 256 + (keep >> 8)));
                var packed = Ssse3.Shuffle(value, indices.AsByte());
                var d = d0 + q;
                Vector128.Store(packed, d);
                Sse2.StoreHigh((double*)(d + BitOperations.PopCount(keep & 0xFF)), packed.AsDouble());

                q += BitOperations.PopCount(keep);
                p += Block;
            }
            i = p;
            o = q;
            escape = s0[p - 1] == (byte)'=';
            lineStart = s0[p - 1] == (byte)'\n';
        }
    }
}
