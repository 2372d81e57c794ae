using System.Xml;
using System.Xml.Linq;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Server.WebDav;

/// <summary>A parsed PROPFIND body (RFC 4918 §9.1): allprop, propname, or a list of properties.</summary>
public sealed record PropfindRequest(PropfindMode Mode, IReadOnlyList<XName> Properties)
{
    /// <summary>Larger PROPFIND bodies are refused; real clients send a few hundred bytes.</summary>
    public const int MaxBodyBytes = 64 * 1024;

    public static readonly PropfindRequest AllProp = new(PropfindMode.AllProp, []);

    private static readonly XNamespace Dav = DavProperties.Namespace;

    /// <summary>The request in <paramref name="body"/>, or null when it is not a valid propfind document.</summary>
    public static PropfindRequest? Parse(ReadOnlyMemory<byte> body)
    {
        // An empty body means allprop (RFC 4918 §9.1).
        if (body.IsEmpty || body.Span.Trim(" \t\r\n"u8).IsEmpty)
            return AllProp;
        XDocument document;
        try
        {
            using var stream = new MemoryStream(body.ToArray(), writable: false);
            var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null };
            using var reader = XmlReader.Create(stream, settings);
            document = XDocument.Load(reader);
        }
        catch (XmlException)
        {
            return null;
        }
        catch (ArgumentException e) when (XmlReaderFault.IsReaderFault(e))
        {
            return null;
        }

        var root = document.Root;
        if (root is null || root.Name != Dav + "propfind")
            return null;
        var choice = root.Elements().FirstOrDefault(e => e.Name.Namespace == Dav);
        if (choice is null)
            return null;
        if (choice.Name == Dav + "allprop")
            return AllProp;
        if (choice.Name == Dav + "propname")
            return new PropfindRequest(PropfindMode.PropName, []);
        if (choice.Name == Dav + "prop")
            return new PropfindRequest(PropfindMode.Prop, [.. choice.Elements().Select(e => e.Name).Distinct()]);
        return null;
    }
}
