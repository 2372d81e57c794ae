using System.Globalization;
using System.Xml;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>Reads just enough of an NZB to check what the mock server wrote (not the product's parser).</summary>
internal static class NzbProbe
{
    public sealed record Segment(long Bytes, int Number, string MessageId);

    public sealed record File(string Subject, List<Segment> Segments);

    public static List<File> Read(Stream stream)
    {
        var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Ignore, XmlResolver = null };
        using var reader = XmlReader.Create(stream, settings);
        var files = new List<File>();
        while (reader.Read())
        {
            if (reader.NodeType != XmlNodeType.Element || reader.NamespaceURI != "http://www.newzbin.com/DTD/2003/nzb")
            {
                continue;
            }
            if (reader.LocalName == "file")
            {
                files.Add(new File(reader.GetAttribute("subject")!, []));
            }
            else if (reader.LocalName == "segment")
            {
                var bytes = long.Parse(reader.GetAttribute("bytes")!, CultureInfo.InvariantCulture);
                var number = int.Parse(reader.GetAttribute("number")!, CultureInfo.InvariantCulture);
                files[^1].Segments.Add(new Segment(bytes, number, reader.ReadElementContentAsString()));
            }
        }
        return files;
    }
}
