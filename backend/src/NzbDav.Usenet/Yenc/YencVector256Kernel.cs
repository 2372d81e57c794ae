using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Data-line decoding 32 bytes at a time (AVX2). Handles blocks whose only special bytes are
/// ordinary escapes and line breaks; stops in front of anything else (a '.' or "=y" at a line
/// start, an escaped '=', CR or LF) and leaves it to the scalar state machine.
/// </summary>
internal static unsafe class YencVector256Kernel
{
    private const int Block = 32;

    // Fully optimized from the first call: tiered JIT otherwise leaves this hot loop in tier-0 code
    // for the whole of a short run (a benchmark, the first minutes of a stream) at a third the speed.
    /// <summary>
    /// Decodes blocks from <paramref name="i"/>/<paramref name="o"/> on, updating the line-start and
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
        var dot = Vector256.Create((byte)'.');
        var y = Vector256.Create((byte)'y');
        var offset = Vector256.Create((byte)42);
        var escapeOffset = Vector256.Create((byte)64);

        fixed (byte* shuffles = &YencLaneCompactTable.First)
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
            // Every block takes the same path: a data-dependent "no special bytes" shortcut
            // mispredicts about half the time on real data and costs more than it saves.
            while (p < srcEnd && q <= dstEnd)
            {
                var v = Vector256.Load(s0 + p);
                var previous = Vector256.Load(s0 + p - 1);
                var isEq = Vector256.Equals(v, equals);
                var special = isEq | Vector256.Equals(v, lf) | Vector256.Equals(v, cr);
                var escaped = Vector256.Equals(previous, equals);
                var startsLine = Vector256.Equals(previous, lf);
                var nextIsY = Vector256.Equals(Vector256.Load(s0 + p + 1), y);
                // An escaped '=' (chains of '=') or an escaped CR/LF (a '=' ending a line) need the
                // scalar rules; so do line starts with '.' (stuffing, terminator) or "=y" (keyword).
                var unusual = (escaped & special) | (startsLine & (Vector256.Equals(v, dot) | (isEq & nextIsY)));
                if (unusual != Vector256<byte>.Zero)
                {
                    break;
                }

                var value = v - offset - (escaped & escapeOffset);
                var keep = ~special.ExtractMostSignificantBits();
                var low = keep & 0xFFFF;
                var high = keep >> 16;
                // One shuffle entry per 16-byte lane packs its kept bytes to the lane's front; the
                // upper lane is stored straight after the lower lane's kept bytes.
                var indices = Vector256.Create(
                    Vector128.Load(shuffles + (low * YencLaneCompactTable.EntrySize)),
                    Vector128.Load(shuffles + (high * YencLaneCompactTable.EntrySize)));
                var packed = Avx2.Shuffle(value, indices);
                var d = d0 + q;
                Vector128.Store(packed.GetLower(), d);
                Vector128.Store(packed.GetUpper(), d + BitOperations.PopCount(low));

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
