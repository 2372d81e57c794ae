namespace NzbDav.Usenet.Yenc;

/// <summary>The line-level state machine: line starts, dot-stuffing, the terminator, keyword lines.</summary>
public sealed partial class YencDecoder
{
    // Internal result of one state step; Continue means "keep looping", anything else is returned.
    private const YencDecodeStatus Continue = (YencDecodeStatus)(-1);

    private YencDecodeStatus Run(ReadOnlySpan<byte> src, Span<byte> dst, ref int i, ref int o)
    {
        // Where the vector kernel may next be tried; never for the scalar kernel.
        var vectorFrom = _kernel == YencKernel.Scalar ? int.MaxValue : 0;
        while (i < src.Length)
        {
            var limit = src.Length;
            if (vectorFrom != int.MaxValue && _phase == YencDecoderPhase.Data && _line is YencLineState.InData or YencLineState.LineStart)
            {
                if (i >= vectorFrom)
                {
                    DecodeVectorized(src, dst, ref i, ref o);
                    // The kernel stopped at a block it leaves to the scalar rules (or near the end
                    // of either span); the scalar path takes that stretch before the next attempt.
                    vectorFrom = i + _scalarStretch;
                    if (i >= src.Length)
                    {
                        break;
                    }
                }
                limit = Math.Min(limit, vectorFrom);
            }
            var status = Step(src, limit, dst, ref i, ref o);
            if (status != Continue)
            {
                return status;
            }
        }
        return YencDecodeStatus.NeedMoreData;
    }

    // Consumes a byte, or moves to a state that will, unless it returns something other than Continue.
    private YencDecodeStatus Step(ReadOnlySpan<byte> src, int limit, Span<byte> dst, ref int i, ref int o)
    {
        switch (_line)
        {
            case YencLineState.InData:
                return DecodeDataScalar(src, limit, dst, ref i, ref o);
            case YencLineState.SkipLine:
                SkipLine(src, limit, ref i);
                return Continue;
            case YencLineState.InKeyword:
                return CollectKeyword(src, limit, ref i);
            case YencLineState.LineStart:
                OnLineStart(src[i], ref i);
                return Continue;
            case YencLineState.AfterDot:
                return OnAfterDot(src[i], dst, ref i, ref o);
            case YencLineState.AfterDotCr:
                return OnAfterDotCr(src[i], dst, ref i, ref o);
            default:
                OnAfterLineStartEquals(src[i], ref i);
                return Continue;
        }
    }

    private void OnLineStart(byte c, ref int i)
    {
        if (c == (byte)'.')
        {
            i++;
            _line = YencLineState.AfterDot;
        }
        else if (c == (byte)'=' && _phase != YencDecoderPhase.Trailer)
        {
            i++;
            _line = YencLineState.AfterLineStartEquals;
        }
        else
        {
            _line = _phase switch
            {
                YencDecoderPhase.Data => YencLineState.InData,
                YencDecoderPhase.AwaitPart => throw ExpectedYpart(),
                _ => YencLineState.SkipLine,
            };
        }
    }

    private YencDecodeStatus OnAfterDot(byte c, Span<byte> dst, ref int i, ref int o)
    {
        if (c is (byte)'\r' or (byte)'\n')
        {
            i++;
            if (c == (byte)'\r')
            {
                _line = YencLineState.AfterDotCr;
                return Continue;
            }
            return Complete();
        }
        // ".." is a stuffed '.'; a lone '.' before data is a server that did not stuff: keep it.
        var status = LeadingDotIsData(dst, ref o);
        if (status == Continue && c == (byte)'.')
        {
            i++;
        }
        return status;
    }

    private YencDecodeStatus OnAfterDotCr(byte c, Span<byte> dst, ref int i, ref int o)
    {
        if (c == (byte)'\n')
        {
            i++;
            return Complete();
        }
        return LeadingDotIsData(dst, ref o);
    }

    private YencDecodeStatus LeadingDotIsData(Span<byte> dst, ref int o)
    {
        switch (_phase)
        {
            case YencDecoderPhase.Data:
                if (o >= dst.Length)
                {
                    return YencDecodeStatus.DestinationFull;
                }
                dst[o++] = unchecked((byte)('.' - 42));
                _line = YencLineState.InData;
                return Continue;
            case YencDecoderPhase.AwaitPart:
                throw ExpectedYpart();
            default:
                _line = YencLineState.SkipLine;
                return Continue;
        }
    }

    private void OnAfterLineStartEquals(byte c, ref int i)
    {
        if (c == (byte)'y')
        {
            i++;
            _keywordLength = _beginLineLength;
            AppendKeyword("=y"u8);
            _line = YencLineState.InKeyword;
            return;
        }
        switch (_phase)
        {
            case YencDecoderPhase.Data:
                // Not a keyword: the line-start '=' escapes this byte like any other.
                _escape = true;
                _line = YencLineState.InData;
                break;
            case YencDecoderPhase.AwaitPart:
                throw ExpectedYpart();
            default:
                _line = YencLineState.SkipLine;
                break;
        }
    }

    private void SkipLine(ReadOnlySpan<byte> src, int limit, ref int i)
    {
        var lf = src[i..limit].IndexOf((byte)'\n');
        if (lf < 0)
        {
            i = limit;
            return;
        }
        i += lf + 1;
        _line = YencLineState.LineStart;
    }

    private YencDecodeStatus Complete()
    {
        _phase = YencDecoderPhase.Completed;
        _line = YencLineState.LineStart;
        return YencDecodeStatus.Completed;
    }

    private static YencException ExpectedYpart()
        => new("The =ybegin line has part= but the next line is not an =ypart line.");
}
