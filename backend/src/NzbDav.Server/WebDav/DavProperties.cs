using System.Xml.Linq;

namespace NzbDav.Server.WebDav;

/// <summary>The live properties NzbDav serves (<see cref="MultistatusWriter"/> writes their values).</summary>
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
}
