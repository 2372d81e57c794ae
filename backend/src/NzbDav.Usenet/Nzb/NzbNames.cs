using System.Xml;

namespace NzbDav.Usenet.Nzb;

// NZB element and attribute names atomised in the reader's name table, so the common case is a
// reference comparison. Case-insensitive matching is the fallback for sloppy generators.
internal sealed class NzbNames
{
    public NzbNames(XmlNameTable table)
    {
        Nzb = table.Add("nzb");
        Head = table.Add("head");
        Meta = table.Add("meta");
        Type = table.Add("type");
        File = table.Add("file");
        Subject = table.Add("subject");
        Poster = table.Add("poster");
        Date = table.Add("date");
        Groups = table.Add("groups");
        Group = table.Add("group");
        Segments = table.Add("segments");
        Segment = table.Add("segment");
        Number = table.Add("number");
        Bytes = table.Add("bytes");
    }

    public string Nzb { get; }
    public string Head { get; }
    public string Meta { get; }
    public string Type { get; }
    public string File { get; }
    public string Subject { get; }
    public string Poster { get; }
    public string Date { get; }
    public string Groups { get; }
    public string Group { get; }
    public string Segments { get; }
    public string Segment { get; }
    public string Number { get; }
    public string Bytes { get; }

    public static bool Is(string localName, string atom) =>
        ReferenceEquals(localName, atom) || string.Equals(localName, atom, StringComparison.OrdinalIgnoreCase);
}
