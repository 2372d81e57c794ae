using System.Globalization;
using System.Xml;
using System.Xml.Linq;

namespace NzbDav.Server.WebDav;

/// <summary>The live properties NzbDav serves and how each is written for a resource.</summary>
public static class DavProperties
{
    public const string Namespace = "DAV:";

    private static readonly string[] CollectionProperties = ["displayname", "resourcetype", "getlastmodified", "creationdate"];

    private static readonly string[] FileProperties =
        ["displayname", "resourcetype", "getcontentlength", "getlastmodified", "getetag", "getcontenttype", "creationdate"];

    /// <summary>The properties <paramref name="resource"/> has (all in the DAV: namespace).</summary>
    public static IReadOnlyList<string> For(DavResource resource) => resource.IsCollection ? CollectionProperties : FileProperties;

    /// <summary>Whether <paramref name="name"/> is a property <paramref name="resource"/> has.</summary>
    public static bool Has(DavResource resource, XName name) =>
        name.NamespaceName == Namespace && For(resource).Contains(name.LocalName, StringComparer.Ordinal);

    /// <summary>Writes <c>&lt;d:name&gt;value&lt;/d:name&gt;</c>; the property must be one <see cref="Has"/> accepts.</summary>
    public static void Write(XmlWriter writer, DavResource resource, string name)
    {
        writer.WriteStartElement("d", name, Namespace);
        switch (name)
        {
            case "displayname":
                writer.WriteString(resource.Name);
                break;
            case "resourcetype":
                if (resource.IsCollection)
                    writer.WriteElementString("d", "collection", Namespace, null);
                break;
            case "getcontentlength":
                writer.WriteString(resource.Length.ToString(CultureInfo.InvariantCulture));
                break;
            case "getlastmodified":
                writer.WriteString(resource.Modified.ToUniversalTime().ToString("R", CultureInfo.InvariantCulture));
                break;
            case "creationdate":
                writer.WriteString(resource.Modified.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture));
                break;
            case "getetag":
                writer.WriteString(resource.ETag);
                break;
            case "getcontenttype":
                writer.WriteString(DavContentTypes.For(resource.Name));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(name), name, "Not a property NzbDav serves");
        }

        writer.WriteEndElement();
    }
}
