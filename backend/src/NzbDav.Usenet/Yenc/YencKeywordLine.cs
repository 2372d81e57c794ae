using System.Text;
using System.Text.Unicode;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Parses yEnc keyword lines (<c>=ybegin</c>, <c>=ypart</c>, <c>=yend</c>). Lenient about what real
/// posters get wrong: trailing CR/LF/spaces, key case, unknown keys, CRCs without leading zeros.
/// </summary>
public static class YencKeywordLine
{
    /// <summary>
    /// Parses an <c>=ybegin</c> line and, for a multipart post, its <c>=ypart</c> line (pass an empty
    /// span for a single-part post). Throws <see cref="YencException"/> when either is malformed.
    /// </summary>
    public static YencHeader ParseBegin(ReadOnlySpan<byte> ybeginLine, ReadOnlySpan<byte> ypartLineOrEmpty)
    {
        var begin = YencKeywordFields.Trim(ybeginLine);
        var fields = ParseBeginFields(begin);
        var ypart = YencKeywordFields.Trim(ypartLineOrEmpty);
        if (ypart.IsEmpty)
        {
            if (fields.Part is not null)
            {
                throw new YencException($"The =ybegin line has part= but no =ypart line follows: {YencKeywordFields.Describe(begin)}");
            }
            return new YencHeader(fields.Name, fields.Size, fields.LineLength, null, fields.Total, 0, fields.Size);
        }

        if (!YencKeywordFields.IsKeyword(ypart, "part"u8))
        {
            throw new YencException($"Expected a =ypart line after =ybegin: {YencKeywordFields.Describe(ypart)}");
        }
        var first = YencKeywordFields.RequireLong(ypart, "begin"u8, "=ypart");
        var last = YencKeywordFields.RequireLong(ypart, "end"u8, "=ypart");
        if (first < 1 || last < first || last > fields.Size)
        {
            throw new YencException(
                $"The =ypart range {first}-{last} does not fit a file of {fields.Size} bytes: {YencKeywordFields.Describe(ypart)}");
        }
        return new YencHeader(fields.Name, fields.Size, fields.LineLength, fields.Part, fields.Total, first - 1, last - first + 1);
    }

    /// <summary>Parses an <c>=yend</c> line. Throws <see cref="YencException"/> when it is malformed.</summary>
    public static YencTrailer ParseEnd(ReadOnlySpan<byte> yendLine)
    {
        var line = YencKeywordFields.Trim(yendLine);
        if (!YencKeywordFields.IsKeyword(line, "end"u8))
        {
            throw new YencException($"Expected a =yend line: {YencKeywordFields.Describe(line)}");
        }
        var size = YencKeywordFields.RequireLong(line, "size"u8, "=yend");
        var part = YencKeywordFields.OptionalInt(line, "part"u8, "=yend");
        if (part < 1)
        {
            throw new YencException($"The =yend part= must be at least 1: {YencKeywordFields.Describe(line)}");
        }
        var partCrc = YencKeywordFields.OptionalHex(line, "pcrc32"u8);
        var fileCrc = YencKeywordFields.OptionalHex(line, "crc32"u8);
        // On a single-part post crc32= is the CRC of the only part, so it doubles as the part CRC.
        if (partCrc is null && part is null)
        {
            partCrc = fileCrc;
        }
        return new YencTrailer(size, part, partCrc, fileCrc);
    }

    /// <summary>True when an =ybegin line is well formed and announces a multipart post (an =ypart line must follow).</summary>
    internal static bool ValidateBegin(ReadOnlySpan<byte> ybeginLine)
        => ParseBeginFields(YencKeywordFields.Trim(ybeginLine)).Part is not null;

    private static BeginFields ParseBeginFields(ReadOnlySpan<byte> line)
    {
        if (!YencKeywordFields.IsKeyword(line, "begin"u8))
        {
            throw new YencException($"Expected a =ybegin line: {YencKeywordFields.Describe(line)}");
        }
        var size = YencKeywordFields.RequireLong(line, "size"u8, "=ybegin");
        var lineLength = YencKeywordFields.OptionalInt(line, "line"u8, "=ybegin") ?? 0;
        var part = YencKeywordFields.OptionalInt(line, "part"u8, "=ybegin");
        var total = YencKeywordFields.OptionalInt(line, "total"u8, "=ybegin");
        if (part < 1 || total < 1)
        {
            throw new YencException($"The =ybegin part= and total= must be at least 1: {YencKeywordFields.Describe(line)}");
        }
        if (!YencKeywordFields.TryGetValue(line, "name"u8, out var name))
        {
            throw new YencException($"The =ybegin line has no name=: {YencKeywordFields.Describe(line)}");
        }
        return new BeginFields(DecodeName(name), size, lineLength, part, total);
    }

    private static string DecodeName(ReadOnlySpan<byte> name)
        // Posters write names in UTF-8 or in a legacy single-byte code page; Latin-1 keeps the
        // latter lossless rather than turning every non-ASCII byte into U+FFFD.
        => Utf8.IsValid(name) ? Encoding.UTF8.GetString(name) : Encoding.Latin1.GetString(name);

    private readonly record struct BeginFields(string Name, long Size, int LineLength, int? Part, int? Total);
}
