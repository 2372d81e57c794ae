using System.Buffers;
using System.Buffers.Text;
using System.Text;
using System.Xml.Linq;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Writes a 207 multistatus body (RFC 4918 §13) in chunks: UTF-8 is produced synchronously into a
/// buffer that is flushed to the response asynchronously, so a big listing never needs synchronous
/// I/O on the socket nor the whole document in memory.
/// </summary>
/// <remarks>
/// The markup is written directly as pre-encoded UTF-8, in exactly the form <c>XmlWriter</c> gave it
/// (<c>&lt;d:x /&gt;</c> for an element without a value, <c>&amp;</c> <c>&lt;</c> <c>&gt;</c> escaped in text,
/// line breaks as <c>\n</c>): through <c>XmlWriter</c>, with its namespace bookkeeping per element and
/// a string per href, a listing of 10,000 job folders spent more time writing than reading the store.
/// A character XML 1.0 cannot carry (a control character, a lone surrogate) is written as U+FFFD; it
/// used to throw in the middle of the body, cutting the listing short.
/// </remarks>
public sealed class MultistatusWriter : IAsyncDisposable
{
    private const int FlushThreshold = 64 * 1024;
    private const char Replacement = '\uFFFD';

    // Everything text must not carry as it is: markup characters, line breaks (normalised to \n),
    // characters XML 1.0 does not allow, and surrogates (checked for a pair).
    private static readonly SearchValues<char> TextSpecial = SearchValues.Create(TextSpecialChars());
    private static readonly SearchValues<char> AttributeSpecial = SearchValues.Create(TextSpecialChars() + "\"");
    private static readonly SearchValues<char> Unreserved = SearchValues.Create("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~");

    private readonly Stream _body;
    private readonly PooledBufferWriter _buffer = new(2 * FlushThreshold);

    // A prop request asks the same properties of every resource: what a collection and what a file
    // has of them is worked out once per response, not per resource.
    private (IReadOnlyList<string> Found, IReadOnlyList<XName> Missing)? _collectionProps;
    private (IReadOnlyList<string> Found, IReadOnlyList<XName> Missing)? _fileProps;

    public MultistatusWriter(Stream body)
    {
        _body = body;
        Raw("<?xml version=\"1.0\" encoding=\"utf-8\"?><d:multistatus xmlns:d=\"DAV:\">"u8);
    }

    /// <summary>Adds the <c>&lt;d:response&gt;</c> of one resource.</summary>
    public async Task WriteAsync(DavResource resource, PropfindRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(resource);
        ArgumentNullException.ThrowIfNull(request);
        Raw("<d:response><d:href>"u8);
        Href(resource);
        Raw("</d:href>"u8);
        switch (request.Mode)
        {
            case PropfindMode.AllProp:
                WritePropstat(resource, DavProperties.For(resource), values: true);
                break;
            case PropfindMode.PropName:
                WritePropstat(resource, DavProperties.For(resource), values: false);
                break;
            default:
                var (found, missing) = resource.IsCollection
                    ? _collectionProps ??= Split(resource, request)
                    : _fileProps ??= Split(resource, request);
                if (found.Count > 0 || missing.Count == 0)
                    WritePropstat(resource, found, values: true);
                if (missing.Count > 0)
                    WriteMissing(missing);
                break;
        }

        Raw("</d:response>"u8);
        if (_buffer.WrittenCount >= FlushThreshold)
            await FlushAsync(cancellationToken);
    }

    /// <summary>Closes the document and sends what is left.</summary>
    public async Task CompleteAsync(CancellationToken cancellationToken)
    {
        Raw("</d:multistatus>"u8);
        await FlushAsync(cancellationToken);
    }

    public ValueTask DisposeAsync()
    {
        _buffer.Dispose();
        return ValueTask.CompletedTask;
    }

    private static (IReadOnlyList<string> Found, IReadOnlyList<XName> Missing) Split(DavResource resource, PropfindRequest request) =>
        ([.. request.Properties.Where(p => DavProperties.Has(resource, p)).Select(p => p.LocalName)],
         [.. request.Properties.Where(p => !DavProperties.Has(resource, p))]);

    private void WritePropstat(DavResource resource, IReadOnlyList<string> names, bool values)
    {
        Raw("<d:propstat>"u8);
        if (names.Count == 0)
        {
            Raw("<d:prop />"u8);
        }
        else
        {
            Raw("<d:prop>"u8);
            foreach (var name in names)
            {
                if (values)
                    WriteProperty(resource, name);
                else
                    Empty(name);
            }

            Raw("</d:prop>"u8);
        }

        Raw("<d:status>HTTP/1.1 200 OK</d:status></d:propstat>"u8);
    }

    /// <summary>One property with its value; the property must be one <see cref="DavProperties.Has"/> accepts.</summary>
    private void WriteProperty(DavResource resource, string name)
    {
        switch (name)
        {
            case "displayname":
                Element("displayname"u8, resource.Name);
                break;
            case "resourcetype":
                Raw(resource.IsCollection ? "<d:resourcetype><d:collection /></d:resourcetype>"u8 : "<d:resourcetype />"u8);
                break;
            case "getcontentlength":
                Raw("<d:getcontentlength>"u8);
                Format(resource.Length);
                Raw("</d:getcontentlength>"u8);
                break;
            case "getlastmodified":
                Raw("<d:getlastmodified>"u8);
                HttpDate(resource.Modified.UtcDateTime);
                Raw("</d:getlastmodified>"u8);
                break;
            case "creationdate":
                Raw("<d:creationdate>"u8);
                IsoDate(resource.Modified.UtcDateTime);
                Raw("</d:creationdate>"u8);
                break;
            case "getetag":
                Element("getetag"u8, resource.ETag);
                break;
            case "getcontenttype":
                Element("getcontenttype"u8, DavContentTypes.For(resource.Name));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(name), name, "Not a property NzbDav serves");
        }
    }

    private void WriteMissing(IReadOnlyList<XName> names)
    {
        Raw("<d:propstat><d:prop>"u8);
        foreach (var name in names)
        {
            // The forms XmlWriter chose: the DAV: prefix in scope, no namespace as it is, any
            // other namespace declared as the element's default.
            Raw("<"u8);
            if (name.NamespaceName == DavProperties.Namespace)
                Raw("d:"u8);
            Text(name.LocalName);
            if (name.NamespaceName.Length > 0 && name.NamespaceName != DavProperties.Namespace)
            {
                Raw(" xmlns=\""u8);
                Text(name.NamespaceName, attribute: true);
                Raw("\""u8);
            }

            Raw(" />"u8);
        }

        Raw("</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>"u8);
    }

    /// <summary><c>&lt;d:name&gt;text&lt;/d:name&gt;</c>, with both tags even when the text is empty (the root's name), as XmlWriter wrote a value.</summary>
    private void Element(ReadOnlySpan<byte> name, string? text)
    {
        Raw("<d:"u8);
        Raw(name);
        Raw(">"u8);
        if (!string.IsNullOrEmpty(text))
            Text(text);
        Raw("</d:"u8);
        Raw(name);
        Raw(">"u8);
    }

    private void Empty(string name)
    {
        Raw("<d:"u8);
        Text(name);
        Raw(" />"u8);
    }

    /// <summary>The URL path: every segment percent-encoded as <see cref="Uri.EscapeDataString(string)"/> does, collections ending in <c>/</c>.</summary>
    private void Href(DavResource resource)
    {
        var segments = resource.Segments;
        if (segments.Count == 0)
        {
            Raw("/"u8);
            return;
        }

        foreach (var segment in segments)
        {
            Raw("/"u8);
            // Most names need no escaping: written as they are, without a string per segment.
            if (segment.AsSpan().ContainsAnyExcept(Unreserved))
                Ascii(Uri.EscapeDataString(segment));
            else
                Ascii(segment);
        }

        if (resource.IsCollection)
            Raw("/"u8);
    }

    private void Raw(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(_buffer.GetSpan(bytes.Length));
        _buffer.Advance(bytes.Length);
    }

    private void Ascii(string value)
    {
        var span = _buffer.GetSpan(value.Length);
        var written = Encoding.ASCII.GetBytes(value, span);
        _buffer.Advance(written);
    }

    private void Format(long value)
    {
        if (!Utf8Formatter.TryFormat(value, _buffer.GetSpan(20), out var written))
            throw new InvalidOperationException("A 20-byte span holds any long.");
        _buffer.Advance(written);
    }

    /// <summary>RFC 1123 (<c>Wed, 01 Jan 2025 00:00:55 GMT</c>), as the "R" format writes it.</summary>
    private void HttpDate(DateTime utc)
    {
        if (!Utf8Formatter.TryFormat(utc, _buffer.GetSpan(29), out var written, new StandardFormat('R')))
            throw new InvalidOperationException("A 29-byte span holds an RFC 1123 date.");
        _buffer.Advance(written);
    }

    /// <summary><c>yyyy-MM-ddTHH:mm:ssZ</c>.</summary>
    private void IsoDate(DateTime utc)
    {
        var span = _buffer.GetSpan(20);
        Digits(span, utc.Year, 4);
        span[4] = (byte)'-';
        Digits(span[5..], utc.Month, 2);
        span[7] = (byte)'-';
        Digits(span[8..], utc.Day, 2);
        span[10] = (byte)'T';
        Digits(span[11..], utc.Hour, 2);
        span[13] = (byte)':';
        Digits(span[14..], utc.Minute, 2);
        span[16] = (byte)':';
        Digits(span[17..], utc.Second, 2);
        span[19] = (byte)'Z';
        _buffer.Advance(20);
    }

    private static void Digits(Span<byte> span, int value, int count)
    {
        for (var i = count - 1; i >= 0; i--)
        {
            span[i] = (byte)('0' + (value % 10));
            value /= 10;
        }
    }

    /// <summary>Text content (or an attribute value) escaped as XmlWriter escaped it.</summary>
    private void Text(string value, bool attribute = false)
    {
        var rest = value.AsSpan();
        while (!rest.IsEmpty)
        {
            var special = rest.IndexOfAny(attribute ? AttributeSpecial : TextSpecial);
            if (special < 0)
            {
                Utf8(rest);
                return;
            }

            Utf8(rest[..special]);
            var c = rest[special];
            var consumed = 1;
            switch (c)
            {
                case '&':
                    Raw("&amp;"u8);
                    break;
                case '<':
                    Raw("&lt;"u8);
                    break;
                case '>':
                    Raw("&gt;"u8);
                    break;
                case '"':
                    Raw("&quot;"u8);
                    break;
                case '\t':
                    Raw(attribute ? "&#x9;"u8 : "\t"u8);
                    break;
                case '\n':
                    Raw(attribute ? "&#xA;"u8 : "\n"u8);
                    break;
                case '\r':
                    if (attribute)
                    {
                        Raw("&#xD;"u8);
                    }
                    else
                    {
                        // \r\n and a lone \r are both one line break, \n.
                        if (special + 1 < rest.Length && rest[special + 1] == '\n')
                            consumed = 2;
                        Raw("\n"u8);
                    }

                    break;
                default:
                    if (char.IsHighSurrogate(c) && special + 1 < rest.Length && char.IsLowSurrogate(rest[special + 1]))
                    {
                        consumed = 2;
                        Utf8(rest.Slice(special, 2));
                    }
                    else
                    {
                        Utf8([Replacement]);
                    }

                    break;
            }

            rest = rest[(special + consumed)..];
        }
    }

    private void Utf8(ReadOnlySpan<char> chars)
    {
        if (chars.IsEmpty)
            return;
        var span = _buffer.GetSpan(Encoding.UTF8.GetMaxByteCount(chars.Length));
        _buffer.Advance(Encoding.UTF8.GetBytes(chars, span));
    }

    private static string TextSpecialChars()
    {
        var chars = new StringBuilder("&<>\r\n\t\uFFFE\uFFFF");
        for (var c = '\0'; c < ' '; c++)
        {
            if (c is not ('\t' or '\n' or '\r'))
                chars.Append(c);
        }

        for (var c = '\uD800'; c <= '\uDFFF'; c++)
            chars.Append(c);
        return chars.ToString();
    }

    private async Task FlushAsync(CancellationToken cancellationToken)
    {
        if (_buffer.WrittenCount == 0)
            return;
        await _body.WriteAsync(_buffer.WrittenMemory, cancellationToken);
        _buffer.ResetWrittenCount();
    }
}
