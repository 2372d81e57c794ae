using System.Buffers;
using System.Xml;

namespace NzbDav.Usenet.Nzb;

// Text and attribute values are copied into one pooled char buffer with ReadValueChunk, so
// numbers are parsed and names atomised without a string per segment.
internal sealed partial class NzbReadSession
{
    // Bounds what one element or attribute can make us buffer; real values are under 300 characters.
    private const int MaxTextLength = 64 * 1024;

    private char[] _text = ArrayPool<char>.Shared.Rent(256);
    private int _textLength;

    private ReadOnlySpan<char> TextSpan => _text.AsSpan(0, _textLength);

    // Attribute values are fully parsed together with their start tag, so this never reads the
    // stream and the synchronous call is safe on an async reader too.
    private void ReadAttributeText()
    {
        _textLength = 0;
        while (true)
        {
            EnsureRoom();
            var read = _reader.ReadValueChunk(_text, _textLength, _text.Length - _textLength);
            if (read == 0)
                return;
            _textLength += read;
        }
    }

    // Leaves the reader on the element's end tag, like every handler. Markup nested in the text
    // is skipped rather than rejected, to stay lenient towards odd generators; only the
    // element's own text is kept.
    private async ValueTask ReadTextAsync()
    {
        _textLength = 0;
        if (_reader.IsEmptyElement)
            return;
        var depth = _reader.Depth;
        while (await ReadAsync().ConfigureAwait(false))
        {
            switch (_reader.NodeType)
            {
                case XmlNodeType.Text or XmlNodeType.CDATA or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace:
                    await AppendValueAsync().ConfigureAwait(false);
                    break;
                case XmlNodeType.Element:
                    await SkipElementAsync().ConfigureAwait(false);
                    break;
                case XmlNodeType.EndElement when _reader.Depth == depth:
                    return;
            }
        }

        throw Error("NZB ended inside an element", Position());
    }

    // A text node may end beyond the reader's buffer; only the async chunk reader may fetch the
    // rest on an async reader, so text (unlike attributes) goes through it.
    private async ValueTask AppendValueAsync()
    {
        while (true)
        {
            EnsureRoom();
            var room = _text.Length - _textLength;
            var read = _async
                ? await _reader.ReadValueChunkAsync(_text, _textLength, room).ConfigureAwait(false)
                : _reader.ReadValueChunk(_text, _textLength, room);
            if (read == 0)
                return;
            _textLength += read;
        }
    }

    private string AtomizeTrimmedText()
    {
        var start = 0;
        var end = _textLength;
        while (start < end && char.IsWhiteSpace(_text[start]))
            start++;
        while (end > start && char.IsWhiteSpace(_text[end - 1]))
            end--;
        return end == start ? string.Empty : _reader.NameTable.Add(_text, start, end - start);
    }

    private void EnsureRoom()
    {
        if (_textLength < _text.Length)
            return;
        if (_text.Length >= MaxTextLength)
            throw Error($"An element's text or an attribute value is too long (the limit is {MaxTextLength - 1} characters)", Position());

        var larger = ArrayPool<char>.Shared.Rent(Math.Min(_text.Length * 2, MaxTextLength));
        _text.AsSpan(0, _textLength).CopyTo(larger);
        ArrayPool<char>.Shared.Return(_text);
        _text = larger;
    }

    private void ReturnTextBuffer()
    {
        var text = _text;
        _text = [];
        _textLength = 0;
        if (text.Length > 0)
            ArrayPool<char>.Shared.Return(text);
    }
}
