using System.Globalization;
using System.Text;
using System.Xml;

namespace NzbDav.MockNntp.Posting;

/// <summary>Writes the NZB 1.1 document for files an <see cref="NntpPoster"/> posted.</summary>
public static class PostedNzbWriter
{
    private const string Namespace = "http://www.newzbin.com/DTD/2003/nzb";

    public static void Write(Stream destination, IReadOnlyList<PostedFile> files, string title, string newsgroup, string poster, DateTimeOffset postedAt)
    {
        ArgumentNullException.ThrowIfNull(files);
        var settings = new XmlWriterSettings { Encoding = new UTF8Encoding(false), Indent = true, IndentChars = " " };
        using var xml = XmlWriter.Create(destination, settings);
        xml.WriteStartDocument();
        xml.WriteDocType("nzb", "-//newzBin//DTD NZB 1.1//EN", "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd", null);
        xml.WriteStartElement("nzb", Namespace);
        xml.WriteStartElement("head", Namespace);
        xml.WriteStartElement("meta", Namespace);
        xml.WriteAttributeString("type", "name");
        xml.WriteString(title);
        xml.WriteEndElement();
        xml.WriteEndElement();
        var date = postedAt.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
        foreach (var file in files)
        {
            xml.WriteStartElement("file", Namespace);
            xml.WriteAttributeString("poster", poster);
            xml.WriteAttributeString("date", date);
            xml.WriteAttributeString("subject", file.Subject);
            xml.WriteStartElement("groups", Namespace);
            xml.WriteElementString("group", Namespace, newsgroup);
            xml.WriteEndElement();
            xml.WriteStartElement("segments", Namespace);
            foreach (var segment in file.Segments)
            {
                xml.WriteStartElement("segment", Namespace);
                xml.WriteAttributeString("bytes", segment.Bytes.ToString(CultureInfo.InvariantCulture));
                xml.WriteAttributeString("number", segment.Number.ToString(CultureInfo.InvariantCulture));
                xml.WriteString(segment.MessageId);
                xml.WriteEndElement();
            }
            xml.WriteEndElement();
            xml.WriteEndElement();
        }
        xml.WriteEndElement();
        xml.WriteEndDocument();
    }
}
