using System.Diagnostics;
using System.Xml;

namespace NzbDav.Usenet.Nzb;

/// <summary>
/// Streaming NZB 1.1 parser over <see cref="XmlReader"/>. The DOCTYPE is skipped and no entity
/// is ever resolved: a document that references a custom entity (declared in a DTD or not) is
/// rejected with an <see cref="NzbFormatException"/>, and nothing outside the stream is read.
/// Namespaces are ignored; element and attribute names match case-insensitively.
/// </summary>
public sealed class NzbParser : INzbParser
{
    // Entities are never expanded (DTDs are ignored), so this only backs up that guarantee.
    private const long MaxCharactersFromEntities = 1024;

    /// <inheritdoc />
    public async Task<NzbDocument> ParseAsync(Stream stream, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(stream);
        cancellationToken.ThrowIfCancellationRequested();
        return await ParseCoreAsync(stream, async: true, cancellationToken).ConfigureAwait(false);
    }

    /// <inheritdoc />
    public NzbDocument Parse(Stream stream, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        cancellationToken.ThrowIfCancellationRequested();
        var parse = ParseCoreAsync(stream, async: false, cancellationToken);
        Debug.Assert(parse.IsCompleted, "With async: false every awaited operation completes synchronously.");
#pragma warning disable RS0030 // With async: false the parse has already completed (asserted above): GetResult reads the result, it never blocks.
        return parse.GetAwaiter().GetResult();
#pragma warning restore RS0030
    }

    private static async ValueTask<NzbDocument> ParseCoreAsync(Stream stream, bool async, CancellationToken cancellationToken)
    {
        Stream input = cancellationToken.CanBeCanceled ? new CancellableReadStream(stream, cancellationToken) : stream;
        XmlReader? reader = null;
        try
        {
            // Create already reads the first bytes to detect the encoding, so it can fail on them too.
            reader = XmlReader.Create(input, CreateSettings(async));
            using var session = new NzbReadSession(reader, async, cancellationToken);
            return await session.ReadDocumentAsync().ConfigureAwait(false);
        }
        catch (XmlException e)
        {
            throw new NzbFormatException($"NZB is not well-formed XML: {WithoutLocation(e)}", e.LineNumber, e.LinePosition, e);
        }
        catch (ArgumentException e) when (XmlReaderFault.IsReaderFault(e))
        {
            var position = reader as IXmlLineInfo;
            throw new NzbFormatException("NZB is not well-formed XML: the XML declaration or encoding is malformed", position?.LineNumber ?? 0, position?.LinePosition ?? 0, e);
        }
        finally
        {
            reader?.Dispose();
        }
    }

    private static XmlReaderSettings CreateSettings(bool async) => new()
    {
        Async = async,
        DtdProcessing = DtdProcessing.Ignore,
        XmlResolver = null,
        MaxCharactersFromEntities = MaxCharactersFromEntities,
        IgnoreComments = true,
        IgnoreProcessingInstructions = true,
        IgnoreWhitespace = true,
        CloseInput = false,
        // A fresh table per parse: NameTable is not thread-safe, and atomised poster and group
        // names must not outlive the document.
        NameTable = new NameTable(),
    };

    // XmlException appends " Line n, position m." to its message; the location is ours to format.
    private static string WithoutLocation(XmlException e)
    {
        var suffix = $" Line {e.LineNumber}, position {e.LinePosition}.";
        return e.Message.EndsWith(suffix, StringComparison.Ordinal) ? e.Message[..^suffix.Length] : e.Message;
    }
}
