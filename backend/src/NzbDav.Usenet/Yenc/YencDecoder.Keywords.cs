namespace NzbDav.Usenet.Yenc;

/// <summary>Collecting "=y..." lines, possibly split across reads, and acting on them.</summary>
public sealed partial class YencDecoder
{
    private YencDecodeStatus CollectKeyword(ReadOnlySpan<byte> src, int limit, ref int i)
    {
        var available = src[i..limit];
        var lf = available.IndexOf((byte)'\n');
        if (lf < 0)
        {
            AppendKeyword(available);
            i = limit;
            return Continue;
        }
        AppendKeyword(available[..lf]);
        i += lf + 1;
        _line = YencLineState.LineStart;
        return OnKeywordLine(_keyword.AsSpan(_beginLineLength, _keywordLength - _beginLineLength));
    }

    private YencDecodeStatus OnKeywordLine(ReadOnlySpan<byte> line)
    {
        switch (_phase)
        {
            case YencDecoderPhase.Preamble:
                if (!YencKeywordFields.IsKeyword(line, "begin"u8))
                {
                    // Some other "=y" text before the header: skipped like any text line.
                    return Continue;
                }
                if (YencKeywordLine.ValidateBegin(line))
                {
                    // Keep the =ybegin bytes in front of the buffer until =ypart arrives.
                    _beginLineLength = line.Length;
                    _sawMultipartBegin = true;
                    _phase = YencDecoderPhase.AwaitPart;
                    return Continue;
                }
                return HeaderDone(line, default);
            case YencDecoderPhase.AwaitPart:
                if (!YencKeywordFields.IsKeyword(line, "part"u8))
                {
                    throw ExpectedYpart();
                }
                var status = HeaderDone(_keyword.AsSpan(0, _beginLineLength), line);
                _beginLineLength = 0;
                return status;
            case YencDecoderPhase.Data:
                if (!YencKeywordFields.IsKeyword(line, "end"u8))
                {
                    throw new YencException(
                        $"Unexpected yEnc keyword line among the data lines: {YencKeywordFields.Describe(line)}");
                }
                Trailer = BuildTrailer(line);
                _phase = YencDecoderPhase.Trailer;
                return Continue;
            default:
                return Continue;
        }
    }

    private YencDecodeStatus HeaderDone(ReadOnlySpan<byte> beginLine, ReadOnlySpan<byte> partLine)
    {
        Header = BuildHeader(beginLine, partLine);
        _phase = YencDecoderPhase.Data;
        return YencDecodeStatus.HeaderParsed;
    }

    private void AppendKeyword(ReadOnlySpan<byte> bytes)
    {
        var needed = _keywordLength + bytes.Length;
        if (needed - _beginLineLength > MaxKeywordLineLength)
        {
            throw new YencException($"A yEnc keyword line is longer than {MaxKeywordLineLength} bytes.");
        }
        if (needed > _keyword.Length)
        {
            // Rare (only very long file names), so growing by copy is fine.
            Array.Resize(ref _keyword, Math.Max(needed, _keyword.Length * 2));
        }
        bytes.CopyTo(_keyword.AsSpan(_keywordLength));
        _keywordLength = needed;
    }
}
