using System.Text;
using System.Xml;
using System.Xml.Linq;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Writes a 207 multistatus body (RFC 4918 §13) in chunks: XML is produced synchronously into a small
/// buffer that is flushed to the response asynchronously, so a big listing never needs synchronous
/// I/O on the socket nor the whole document in memory.
/// </summary>
public sealed class MultistatusWriter : IAsyncDisposable
{
    private const int FlushThreshold = 64 * 1024;
    private const string Ok = "HTTP/1.1 200 OK";
    private const string NotFound = "HTTP/1.1 404 Not Found";

    private readonly Stream _body;
    private readonly MemoryStream _buffer = new();
    private readonly XmlWriter _writer;

    public MultistatusWriter(Stream body)
    {
        _body = body;
        _writer = XmlWriter.Create(_buffer, new XmlWriterSettings { Encoding = new UTF8Encoding(false), CloseOutput = false });
        _writer.WriteStartDocument();
        _writer.WriteStartElement("d", "multistatus", DavProperties.Namespace);
    }

    /// <summary>Adds the <c>&lt;d:response&gt;</c> of one resource.</summary>
    public async Task WriteAsync(DavResource resource, PropfindRequest request, CancellationToken cancellationToken)
    {
        _writer.WriteStartElement("d", "response", DavProperties.Namespace);
        _writer.WriteElementString("d", "href", DavProperties.Namespace, resource.Href);
        switch (request.Mode)
        {
            case PropfindMode.AllProp:
                WritePropstat(resource, DavProperties.For(resource), values: true);
                break;
            case PropfindMode.PropName:
                WritePropstat(resource, DavProperties.For(resource), values: false);
                break;
            default:
                var found = request.Properties.Where(p => DavProperties.Has(resource, p)).Select(p => p.LocalName).ToList();
                var missing = request.Properties.Where(p => !DavProperties.Has(resource, p)).ToList();
                if (found.Count > 0 || missing.Count == 0)
                    WritePropstat(resource, found, values: true);
                if (missing.Count > 0)
                    WriteMissing(missing);
                break;
        }

        _writer.WriteEndElement();
        if (_buffer.Length >= FlushThreshold)
            await FlushAsync(cancellationToken);
    }

    /// <summary>Closes the document and sends what is left.</summary>
    public async Task CompleteAsync(CancellationToken cancellationToken)
    {
        _writer.WriteEndElement();
        _writer.WriteEndDocument();
        await FlushAsync(cancellationToken);
    }

    public ValueTask DisposeAsync()
    {
        _writer.Dispose();
        return _buffer.DisposeAsync();
    }

    private void WritePropstat(DavResource resource, IReadOnlyList<string> names, bool values)
    {
        _writer.WriteStartElement("d", "propstat", DavProperties.Namespace);
        _writer.WriteStartElement("d", "prop", DavProperties.Namespace);
        foreach (var name in names)
        {
            if (values)
                DavProperties.Write(_writer, resource, name);
            else
                _writer.WriteElementString("d", name, DavProperties.Namespace, null);
        }

        _writer.WriteEndElement();
        _writer.WriteElementString("d", "status", DavProperties.Namespace, Ok);
        _writer.WriteEndElement();
    }

    private void WriteMissing(IReadOnlyList<XName> names)
    {
        _writer.WriteStartElement("d", "propstat", DavProperties.Namespace);
        _writer.WriteStartElement("d", "prop", DavProperties.Namespace);
        foreach (var name in names)
        {
            if (name.NamespaceName.Length == 0)
                _writer.WriteElementString(name.LocalName, null);
            else
                _writer.WriteElementString(name.LocalName, name.NamespaceName, null);
        }

        _writer.WriteEndElement();
        _writer.WriteElementString("d", "status", DavProperties.Namespace, NotFound);
        _writer.WriteEndElement();
    }

    private async Task FlushAsync(CancellationToken cancellationToken)
    {
        _writer.Flush();
        if (_buffer.Length == 0)
            return;
        await _body.WriteAsync(_buffer.GetBuffer().AsMemory(0, (int)_buffer.Length), cancellationToken);
        _buffer.SetLength(0);
    }
}
