using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Data-line decoding 64 bytes at a time (AVX-512 BW + VBMI2): the same block rules as
/// <see cref="YencVector256Kernel"/>, with the compare results as mask registers and VPCOMPRESSB
/// dropping the escape and line-break bytes in one instruction instead of a table shuffle.
/// </summary>
internal static unsafe class YencVector512Kernel
{
    private const int Block = 64;

    /// <summary>
    /// Decodes blocks from <paramref name="i"/>/<paramref name="o"/> on, updating the line-start and
    /// pending-escape states; returns when a block needs the scalar path or either span runs short.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Decode(ReadOnlySpan<byte> src, Span<byte> dst, ref int i, ref int o, ref bool lineStart, ref bool escape)
    {
        if (!Avx512Vbmi2.IsSupported || !Avx512BW.IsSupported)
        {
            return;
        }
        var equals = Vector512.Create((byte)'=');
        var cr = Vector512.Create((byte)'\r');
        var lf = Vector512.Create((byte)'\n');
        var dot = Vector512.Create((byte)'.');
        var y = Vector512.Create((byte)'y');
        var offset = Vector512.Create((byte)42);
        var escapeOffset = Vector512.Create((byte)64);

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
            var dstEnd = dst.Length - Block; // the compressed block is stored whole
            while (p < srcEnd && q <= dstEnd)
            {
                var v = Vector512.Load(s0 + p);
                var previous = Vector512.Load(s0 + p - 1);
                var isEq = Vector512.Equals(v, equals);
                var special = isEq | Vector512.Equals(v, lf) | Vector512.Equals(v, cr);
                var escaped = Vector512.Equals(previous, equals);
                var startsLine = Vector512.Equals(previous, lf);
                var nextIsY = Vector512.Equals(Vector512.Load(s0 + p + 1), y);
                var unusual = (escaped & special) | (startsLine & (Vector512.Equals(v, dot) | (isEq & nextIsY)));
                if (unusual != Vector512<byte>.Zero)
                {
                    break;
                }

                var value = v - offset - (escaped & escapeOffset);
                var keep = ~special;
                // Compress into a register and store it whole: the memory form of VPCOMPRESSB is
                // slow on several cores, and the bytes past the kept ones are overwritten next.
                Vector512.Store(Avx512Vbmi2.Compress(Vector512<byte>.Zero, keep, value), d0 + q);
                q += BitOperations.PopCount(keep.ExtractMostSignificantBits());
                p += Block;
            }
            i = p;
            o = q;
            escape = s0[p - 1] == (byte)'=';
            lineStart = s0[p - 1] == (byte)'\n';
        }
    }
}
