using System.Globalization;
using System.Text;
using System.Xml;
using NzbDav.MockNntp.Articles;

namespace NzbDav.MockNntp.Nzb;

/// <summary>Writes an NZB 1.1 document (DOCTYPE, namespace, meta name) for the server's files.</summary>
public static class MockNzbWriter
{
    private const string Namespace = "http://www.newzbin.com/DTD/2003/nzb";

    public static void Write(Stream destination, IReadOnlyList<MockFile> files, string? title, DateTimeOffset postedAt)
    {
        var settings = new XmlWriterSettings { Encoding = new UTF8Encoding(false), Indent = true, IndentChars = " " };
        using var xml = XmlWriter.Create(destination, settings);
        xml.WriteStartDocument();
        xml.WriteDocType("nzb", "-//newzBin//DTD NZB 1.1//EN", "http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd", null);
        xml.WriteStartElement("nzb", Namespace);
        xml.WriteStartElement("head", Namespace);
        xml.WriteStartElement("meta", Namespace);
        xml.WriteAttributeString("type", "name");
        xml.WriteString(title ?? (files.Count > 0 ? Path.GetFileNameWithoutExtension(files[0].Name) : "mock"));
        xml.WriteEndElement();
        xml.WriteEndElement();
        var date = postedAt.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
        foreach (var file in files)
        {
            xml.WriteStartElement("file", Namespace);
            xml.WriteAttributeString("poster", MockArticleFraming.Poster);
            xml.WriteAttributeString("date", date);
            xml.WriteAttributeString("subject", MockArticleFraming.Subject(file, files.Count));
            xml.WriteStartElement("groups", Namespace);
            xml.WriteElementString("group", Namespace, MockArticleFraming.Newsgroup);
            xml.WriteEndElement();
            xml.WriteStartElement("segments", Namespace);
            foreach (var article in file.Articles)
            {
                xml.WriteStartElement("segment", Namespace);
                xml.WriteAttributeString("bytes", article.EncodedSize.ToString(CultureInfo.InvariantCulture));
                xml.WriteAttributeString("number", article.Number.ToString(CultureInfo.InvariantCulture));
                xml.WriteString(article.MessageId);
                xml.WriteEndElement();
            }
            xml.WriteEndElement();
            xml.WriteEndElement();
        }
        xml.WriteEndElement();
        xml.WriteEndDocument();
    }
}
