using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NzbDav.Usenet.Yenc;

/// <summary>Decoding inside data lines.</summary>
public sealed partial class YencDecoder
{
    // Runs until the line ends (LF consumed), limit is reached, or the destination is full.
    private YencDecodeStatus DecodeDataScalar(ReadOnlySpan<byte> src, int limit, Span<byte> dst, ref int i, ref int o)
    {
        ref var s = ref MemoryMarshal.GetReference(src);
        ref var d = ref MemoryMarshal.GetReference(dst);
        var si = i;
        var di = o;
        var dLen = dst.Length;
        var status = Continue;
        while (si < limit)
        {
            var c = Unsafe.Add(ref s, si);
            if (_escape)
            {
                _escape = false;
                if (c is (byte)'\r' or (byte)'\n')
                {
                    // "=" at a line end escapes nothing; sloppy encoders write it, drop it.
                    continue;
                }
                if (di >= dLen)
                {
                    _escape = true;
                    status = YencDecodeStatus.DestinationFull;
                    break;
                }
                Unsafe.Add(ref d, di++) = unchecked((byte)(c - 106));
                si++;
                continue;
            }
            if (c > (byte)'=' || (c != (byte)'=' && c != (byte)'\r' && c != (byte)'\n'))
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
                _escape = true;
            }
            else if (c == (byte)'\n')
            {
                _line = YencLineState.LineStart;
                break;
            }
        }
        i = si;
        o = di;
        return status;
    }
}
