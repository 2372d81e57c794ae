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
        => ParseHeaderFields(ybeginLine, ypartLineOrEmpty, out var name).ToHeader(DecodeName(name));

    /// <summary>
    /// <see cref="ParseBegin"/> without building the header, so a caller can reuse an equal one;
    /// <paramref name="name"/> is the raw <c>name=</c> value inside <paramref name="ybeginLine"/>.
    /// </summary>
    internal static YencHeaderFields ParseHeaderFields(ReadOnlySpan<byte> ybeginLine, ReadOnlySpan<byte> ypartLineOrEmpty, out ReadOnlySpan<byte> name)
    {
        var begin = YencKeywordFields.Trim(ybeginLine);
        var fields = ParseBeginFields(begin, out name);
        var ypart = YencKeywordFields.Trim(ypartLineOrEmpty);
        if (ypart.IsEmpty)
        {
            if (fields.Part is not null)
            {
                throw new YencException($"The =ybegin line has part= but no =ypart line follows: {YencKeywordFields.Describe(begin)}");
            }
            return fields;
        }

        if (!YencKeywordFields.IsKeyword(ypart, "part"u8))
        {
            throw new YencException($"Expected a =ypart line after =ybegin: {YencKeywordFields.Describe(ypart)}");
        }
        var first = YencKeywordFields.RequireLong(ypart, "begin"u8, "=ypart");
        var last = YencKeywordFields.RequireLong(ypart, "end"u8, "=ypart");
        if (first < 1 || last < first || last > fields.FileSize)
        {
            throw new YencException(
                $"The =ypart range {first}-{last} does not fit a file of {fields.FileSize} bytes: {YencKeywordFields.Describe(ypart)}");
        }
        return fields with { PartBegin = first - 1, PartSize = last - first + 1 };
    }

    /// <summary>
    /// Decodes a raw <c>name=</c> value. Posters write names in UTF-8 or in a legacy single-byte
    /// code page; Latin-1 keeps the latter lossless rather than turning bytes into U+FFFD.
    /// </summary>
    internal static string DecodeName(ReadOnlySpan<byte> name)
        => Utf8.IsValid(name) ? Encoding.UTF8.GetString(name) : Encoding.Latin1.GetString(name);

    /// <summary>Parses an <c>=yend</c> line. Throws <see cref="YencException"/> when it is malformed.</summary>
    public static YencTrailer ParseEnd(ReadOnlySpan<byte> yendLine)
    {
        var (size, part, partCrc, fileCrc) = ParseEndFields(yendLine);
        return new YencTrailer(size, part, partCrc, fileCrc);
    }

    /// <summary><see cref="ParseEnd"/> without building the trailer, so a caller can reuse an equal one.</summary>
    internal static (long Size, int? Part, uint? PartCrc32, uint? FileCrc32) ParseEndFields(ReadOnlySpan<byte> yendLine)
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
        return (size, part, partCrc, fileCrc);
    }

    /// <summary>True when an =ybegin line is well formed and announces a multipart post (an =ypart line must follow).</summary>
    internal static bool ValidateBegin(ReadOnlySpan<byte> ybeginLine)
        => ParseBeginFields(YencKeywordFields.Trim(ybeginLine), out _).Part is not null;

    private static YencHeaderFields ParseBeginFields(ReadOnlySpan<byte> line, out ReadOnlySpan<byte> name)
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
        if (!YencKeywordFields.TryGetValue(line, "name"u8, out name))
        {
            throw new YencException($"The =ybegin line has no name=: {YencKeywordFields.Describe(line)}");
        }
        return new YencHeaderFields(size, lineLength, part, total, 0, size);
    }
}
