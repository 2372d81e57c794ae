using System.Globalization;
using System.Text;
using System.Xml;
using System.Xml.Linq;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>
/// The multistatus body is written as UTF-8 directly: the same bytes XmlWriter wrote for every name
/// XML can carry, names with markup and line breaks read back by a parser as they are, and a
/// character XML cannot carry replaced instead of cutting the body short.
/// </summary>
public sealed class MultistatusWriterTests
{
    private static readonly XNamespace D = DavProperties.Namespace;
    private static readonly DateTimeOffset Modified = new(2025, 3, 4, 5, 6, 7, TimeSpan.Zero);

    [Fact]
    public async Task The_body_is_byte_for_byte_what_XmlWriter_wrote_across_many_flushes()
    {
        var ct = TestContext.Current.CancellationToken;
        List<DavResource> resources =
        [
            Folder([]),
            Folder(["content", "tv"]),
            Folder(["content", "tv", "Show & Tell <2024> \"cut\" (x)"]),
            File(["content", "tv", "Show", "Ünïcødé 𝄞 name #1 ?.mkv"], 4_000_000_000),
            File(["content", "tv", "Show", "notes 100%.nfo"], 0),
        ];
        // Over the writer's flush threshold several times.
        resources.AddRange(Enumerable.Range(0, 2_000).Select(i => File(["content", "tv", "Show", $"Episode {i} - A & B.srt"], i * 1_000L)));

        var written = await WriteAsync(resources, PropfindRequest.AllProp, ct);

        Assert.Equal(Encoding.UTF8.GetString(Reference(resources)), Encoding.UTF8.GetString(written));
    }

    [Fact]
    public async Task Names_with_markup_and_line_breaks_read_back_as_they_are()
    {
        var ct = TestContext.Current.CancellationToken;
        const string name = "A & B <c> \"d\" 'e' é 𝄞\r\nf\rg\th.mkv";
        var file = File(["content", "tv", name], 5);

        var document = XDocument.Parse(Encoding.UTF8.GetString(await WriteAsync([file], PropfindRequest.AllProp, ct)));

        var response = Assert.Single(document.Root!.Elements(D + "response"));
        Assert.Equal("/content/tv/" + Uri.EscapeDataString(name), response.Element(D + "href")!.Value);
        // XML parsers read any line break as \n, as XmlWriter wrote them.
        Assert.Equal(name.Replace("\r\n", "\n", StringComparison.Ordinal).Replace('\r', '\n'), response.Descendants(D + "displayname").Single().Value);
    }

    [Fact]
    public async Task A_character_xml_cannot_carry_is_replaced_and_the_listing_is_whole()
    {
        var ct = TestContext.Current.CancellationToken;
        var bad = File(["content", "tv", "bad\u0001name\uD800x\uFFFF.mkv"], 5);
        var good = File(["content", "tv", "good.mkv"], 6);

        var document = XDocument.Parse(Encoding.UTF8.GetString(await WriteAsync([bad, good], PropfindRequest.AllProp, ct)));

        var names = document.Descendants(D + "displayname").Select(e => e.Value).ToList();
        Assert.Equal(["bad\uFFFDname\uFFFDx\uFFFD.mkv", "good.mkv"], names);
    }

    [Fact]
    public async Task A_prop_request_answers_found_and_missing_properties_in_their_namespaces()
    {
        var ct = TestContext.Current.CancellationToken;
        XNamespace other = "urn:x&y\"z";
        var request = new PropfindRequest(PropfindMode.Prop, [D + "getetag", D + "quota-used-bytes", other + "foo", XName.Get("bar"), D + "displayname"]);
        var folder = Folder(["content", "tv"]);
        var file = File(["content", "tv", "a.mkv"], 7);

        var text = Encoding.UTF8.GetString(await WriteAsync([folder, file], request, ct));

        Assert.Contains("<d:prop><d:displayname>tv</d:displayname></d:prop>", text, StringComparison.Ordinal);
        Assert.Contains("<d:prop><d:getetag /><d:quota-used-bytes /><foo xmlns=\"urn:x&amp;y&quot;z\" /><bar /></d:prop><d:status>HTTP/1.1 404 Not Found</d:status>", text, StringComparison.Ordinal);
        Assert.Contains("<d:prop><d:getetag>" + file.ETag + "</d:getetag><d:displayname>a.mkv</d:displayname></d:prop>", text, StringComparison.Ordinal);
        var document = XDocument.Parse(text);
        Assert.Equal(2, document.Descendants(other + "foo").Count());
        var names = await WriteAsync([file], new PropfindRequest(PropfindMode.PropName, []), ct);
        Assert.Contains("<d:prop><d:displayname /><d:resourcetype /><d:getcontentlength />", Encoding.UTF8.GetString(names), StringComparison.Ordinal);
    }

    private static async Task<byte[]> WriteAsync(IEnumerable<DavResource> resources, PropfindRequest request, CancellationToken ct)
    {
        using var body = new MemoryStream();
        await using (var writer = new MultistatusWriter(body))
        {
            foreach (var resource in resources)
                await writer.WriteAsync(resource, request, ct);
            await writer.CompleteAsync(ct);
        }

        return body.ToArray();
    }

    private static DavResource Folder(IReadOnlyList<string> segments) =>
        new() { Segments = segments, Kind = DavResourceKind.Folder, Modified = Modified };

    private static DavResource File(IReadOnlyList<string> segments, long length) => new()
    {
        Segments = segments,
        Kind = DavResourceKind.LibraryFile,
        Length = length,
        Modified = Modified.AddSeconds(length % 1_000),
        ETag = "\"" + length.ToString("x", CultureInfo.InvariantCulture) + "\"",
    };

    /// <summary>An allprop body as XmlWriter writes it: the form the server answered before.</summary>
    private static byte[] Reference(IEnumerable<DavResource> resources)
    {
        const string ns = DavProperties.Namespace;
        using var buffer = new MemoryStream();
        using (var xml = XmlWriter.Create(buffer, new XmlWriterSettings { Encoding = new UTF8Encoding(false) }))
        {
            xml.WriteStartDocument();
            xml.WriteStartElement("d", "multistatus", ns);
            foreach (var resource in resources)
            {
                xml.WriteStartElement("d", "response", ns);
                xml.WriteElementString("d", "href", ns, resource.Href);
                xml.WriteStartElement("d", "propstat", ns);
                xml.WriteStartElement("d", "prop", ns);
                foreach (var name in DavProperties.For(resource))
                {
                    xml.WriteStartElement("d", name, ns);
                    switch (name)
                    {
                        case "resourcetype":
                            if (resource.IsCollection)
                                xml.WriteElementString("d", "collection", ns, null);
                            break;
                        case "displayname":
                            xml.WriteString(resource.Name);
                            break;
                        case "getcontentlength":
                            xml.WriteString(resource.Length.ToString(CultureInfo.InvariantCulture));
                            break;
                        case "getlastmodified":
                            xml.WriteString(resource.Modified.ToUniversalTime().ToString("R", CultureInfo.InvariantCulture));
                            break;
                        case "creationdate":
                            xml.WriteString(resource.Modified.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture));
                            break;
                        case "getetag":
                            xml.WriteString(resource.ETag);
                            break;
                        default:
                            xml.WriteString(DavContentTypes.For(resource.Name));
                            break;
                    }

                    xml.WriteEndElement();
                }

                xml.WriteEndElement();
                xml.WriteElementString("d", "status", ns, "HTTP/1.1 200 OK");
                xml.WriteEndElement();
                xml.WriteEndElement();
            }

            xml.WriteEndElement();
            xml.WriteEndDocument();
        }

        return buffer.ToArray();
    }
}
