namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Header and trailer objects, reused when equal to the previous article's. A pooled decoder reads
/// the segments of one file in turn: the file name is the same every time, so its string is kept
/// rather than decoded again, and a repeated article (a retry, a race) allocates nothing at all.
/// </summary>
public sealed partial class YencDecoder
{
    private byte[] _nameBytes = [];
    private string? _name;
    private YencHeader? _lastHeader;
    private YencTrailer? _lastTrailer;

    private YencHeader BuildHeader(ReadOnlySpan<byte> beginLine, ReadOnlySpan<byte> partLine)
    {
        var fields = YencKeywordLine.ParseHeaderFields(beginLine, partLine, out var nameBytes);
        if (_name is null || !nameBytes.SequenceEqual(_nameBytes))
        {
            _name = YencKeywordLine.DecodeName(nameBytes);
            _nameBytes = nameBytes.ToArray();
            _lastHeader = null;
        }
        if (_lastHeader is null || !fields.Matches(_lastHeader))
        {
            _lastHeader = fields.ToHeader(_name);
        }
        return _lastHeader;
    }

    private YencTrailer BuildTrailer(ReadOnlySpan<byte> line)
    {
        var (size, part, partCrc, fileCrc) = YencKeywordLine.ParseEndFields(line);
        if (_lastTrailer is not { } last || last.Size != size || last.Part != part || last.PartCrc32 != partCrc || last.FileCrc32 != fileCrc)
        {
            _lastTrailer = new YencTrailer(size, part, partCrc, fileCrc);
        }
        return _lastTrailer;
    }
}
