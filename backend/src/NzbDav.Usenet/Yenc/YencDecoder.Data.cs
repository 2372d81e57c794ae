using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NzbDav.Usenet.Yenc;

/// <summary>Decoding inside data lines: the scalar loop, and the hand-off to the vector kernels.</summary>
public sealed partial class YencDecoder
{
    // How far the scalar loop runs after a vector kernel stops at a block it does not handle: past
    // that block and the one byte of look-ahead it inspects, so the next attempt starts fresh.
    private static int ScalarStretch(YencKernel kernel) => kernel switch
    {
        YencKernel.Vector512 => 66,
        YencKernel.Vector256 => 34,
        _ => 18,
    };

    // 1 for the bytes that end a run of plain data inside a line: LF, CR and '='.
    private static ReadOnlySpan<byte> DataBreaks =>
    [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];

    // Runs until the line ends (LF consumed), limit is reached, or the destination is full.
    private YencDecodeStatus DecodeDataScalar(ReadOnlySpan<byte> src, int limit, Span<byte> dst, ref int i, ref int o)
    {
        ref var s = ref MemoryMarshal.GetReference(src);
        ref var d = ref MemoryMarshal.GetReference(dst);
        ref var breaks = ref MemoryMarshal.GetReference(DataBreaks);
        var si = i;
        var di = o;
        var dLen = dst.Length;
        var escape = _escape;
        var status = Continue;
        while (si < limit)
        {
            var c = Unsafe.Add(ref s, si);
            if (escape)
            {
                escape = false;
                if (c is (byte)'\r' or (byte)'\n')
                {
                    // "=" at a line end escapes nothing; sloppy encoders write it, drop it.
                    continue;
                }
                if (di >= dLen)
                {
                    escape = true;
                    status = YencDecodeStatus.DestinationFull;
                    break;
                }
                Unsafe.Add(ref d, di++) = unchecked((byte)(c - 106));
                si++;
                continue;
            }
            // One table test keeps the common case (plain data) to a single well-predicted branch.
            if (Unsafe.Add(ref breaks, c) == 0)
            {
                if (di >= dLen)
                {
                    status = YencDecodeStatus.DestinationFull;
                    break;
                }
                Unsafe.Add(ref d, di++) = unchecked((byte)(c - 42));
                si++;
                continue;
            }
            si++;
            if (c == (byte)'=')
            {
                escape = true;
            }
            else if (c == (byte)'\n')
            {
                _line = YencLineState.LineStart;
                break;
            }
        }
        _escape = escape;
        i = si;
        o = di;
        return status;
    }

    private void DecodeVectorized(ReadOnlySpan<byte> src, Span<byte> dst, ref int i, ref int o)
    {
        var lineStart = _line == YencLineState.LineStart;
        var escape = _escape;
        if (_kernel == YencKernel.Vector512)
        {
            YencVector512Kernel.Decode(src, dst, ref i, ref o, ref lineStart, ref escape);
        }
        else if (_kernel == YencKernel.Vector256)
        {
            YencVector256Kernel.Decode(src, dst, ref i, ref o, ref lineStart, ref escape);
        }
        else
        {
            YencVector128Kernel.Decode(src, dst, ref i, ref o, ref lineStart, ref escape);
        }
        _line = lineStart ? YencLineState.LineStart : YencLineState.InData;
        _escape = escape;
    }
}
