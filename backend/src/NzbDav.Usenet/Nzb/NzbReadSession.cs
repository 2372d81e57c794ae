using System.Xml;

namespace NzbDav.Usenet.Nzb;

// State of one parse. Every method is written once as async; with async: false all
// awaited operations complete synchronously, so the synchronous parser shares this code.
// Handlers leave the reader on the last node of the element they were given (its end tag, or
// the element itself when empty), which keeps child iteration uniform.
internal sealed partial class NzbReadSession : IDisposable
{
    private readonly XmlReader _reader;
    private readonly IXmlLineInfo? _lineInfo;
    private readonly bool _async;
    private readonly CancellationToken _cancellationToken;
    private readonly NzbNames _names;
    private readonly NzbSegmentCollector _segments = new();
    private readonly List<NzbFile> _files = [];
    private readonly List<KeyValuePair<string, string>> _meta = [];

    public NzbReadSession(XmlReader reader, bool async, CancellationToken cancellationToken)
    {
        _reader = reader;
        _lineInfo = reader as IXmlLineInfo;
        _async = async;
        _cancellationToken = cancellationToken;
        _names = new NzbNames(reader.NameTable);
    }

    public async ValueTask<NzbDocument> ReadDocumentAsync()
    {
        if (!await MoveToRootAsync().ConfigureAwait(false))
            throw new NzbFormatException("NZB is empty: there is no root element", 0, 0);

        var root = Position();
        if (!NzbNames.Is(_reader.LocalName, _names.Nzb))
            throw Error($"Root element is <{NzbPreview.Of(_reader.LocalName)}>, expected <nzb>; this is not an NZB", root);

        if (!_reader.IsEmptyElement)
        {
            var depth = _reader.Depth;
            while (await NextChildElementAsync(depth).ConfigureAwait(false))
            {
                if (NzbNames.Is(_reader.LocalName, _names.File))
                    await ReadFileAsync().ConfigureAwait(false);
                else if (NzbNames.Is(_reader.LocalName, _names.Head))
                    await ReadHeadAsync().ConfigureAwait(false);
                else
                    await SkipElementAsync().ConfigureAwait(false);
            }
        }

        // Reading to the end makes trailing garbage a format error instead of being ignored.
        while (await ReadAsync().ConfigureAwait(false))
        {
        }

        if (_files.Count == 0 && _dropped.Count > 0)
        {
            var first = _dropped[0];
            throw new NzbFormatException(
                $"NZB has no usable file: all {_dropped.Count} <file> element(s) were dropped; the first, \"{NzbPreview.Of(first.Subject)}\", because {first.Reason}",
                first.LineNumber, first.LinePosition);
        }
        if (_files.Count == 0)
            throw Error("NZB contains no <file> elements", root);
        return new NzbDocument(_files, _meta.Count == 0 ? NzbMetadata.Empty : new NzbMetadata(_meta), _dropped);
    }

    public void Dispose()
    {
        _segments.Dispose();
        ReturnTextBuffer();
    }

    private async ValueTask ReadHeadAsync()
    {
        if (_reader.IsEmptyElement)
            return;
        var depth = _reader.Depth;
        while (await NextChildElementAsync(depth).ConfigureAwait(false))
        {
            if (!NzbNames.Is(_reader.LocalName, _names.Meta))
            {
                await SkipElementAsync().ConfigureAwait(false);
                continue;
            }

            string? type = null;
            while (_reader.MoveToNextAttribute())
            {
                if (NzbNames.Is(_reader.LocalName, _names.Type))
                    type = _reader.Value.Trim();
            }

            _reader.MoveToElement();
            await ReadTextAsync().ConfigureAwait(false);
            if (!string.IsNullOrEmpty(type))
                _meta.Add(new KeyValuePair<string, string>(type, TextSpan.Trim().ToString()));
        }
    }

    private async ValueTask<bool> MoveToRootAsync()
    {
        while (await ReadAsync().ConfigureAwait(false))
        {
            if (_reader.NodeType == XmlNodeType.Element)
                return true;
        }

        return false;
    }

    // Advances to the next child element of the element at parentDepth; false at its end tag.
    private async ValueTask<bool> NextChildElementAsync(int parentDepth)
    {
        _cancellationToken.ThrowIfCancellationRequested();
        while (await ReadAsync().ConfigureAwait(false))
        {
            if (_reader.NodeType == XmlNodeType.Element)
                return true;
            if (_reader.NodeType == XmlNodeType.EndElement && _reader.Depth == parentDepth)
                return false;
        }

        throw Error("NZB ended inside an element", Position());
    }

    // Moves to the end tag of the current element (unlike XmlReader.Skip, which moves past it).
    private async ValueTask SkipElementAsync()
    {
        if (_reader.IsEmptyElement)
            return;
        var depth = _reader.Depth;
        while (await ReadAsync().ConfigureAwait(false))
        {
            if (_reader.NodeType == XmlNodeType.EndElement && _reader.Depth == depth)
                return;
        }

        throw Error("NZB ended inside an element", Position());
    }

    private ValueTask<bool> ReadAsync() =>
        _async ? new ValueTask<bool>(_reader.ReadAsync()) : new ValueTask<bool>(_reader.Read());

    private (int Line, int Column) Position() =>
        _lineInfo is { } info && info.HasLineInfo() ? (info.LineNumber, info.LinePosition) : (0, 0);

    private static NzbFormatException Error(string detail, (int Line, int Column) at) =>
        new(detail, at.Line, at.Column);
}
