using System.Text;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Usenet.Tests.Nzb;

// Builds NZB text and parses it through either the synchronous or the asynchronous path.
internal static class NzbTestInput
{
    public const string Prolog =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        + "<!DOCTYPE nzb PUBLIC \"-//newzBin//DTD NZB 1.1//EN\" \"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd\">\n";

    // A complete NZB 1.1 document around body (head and file elements).
    public static string Document(string body) =>
        Prolog + "<nzb xmlns=\"http://www.newzbin.com/DTD/2003/nzb\">\n" + body + "\n</nzb>\n";

    // One file element with the given segment elements.
    public static string File(string subject, string segments, string extraAttributes = "date=\"1700000000\"") =>
        $"<file poster=\"poster@example.com\" {extraAttributes} subject=\"{subject}\">\n"
        + "<groups><group>alt.binaries.test</group></groups>\n"
        + $"<segments>\n{segments}\n</segments>\n</file>";

    public static string Segment(int number, string messageId, long bytes = 739811) =>
        $"<segment bytes=\"{bytes}\" number=\"{number}\">{messageId}</segment>";

    public static Task<NzbDocument> ParseAsync(string xml, bool useAsync) =>
        ParseAsync(Encoding.UTF8.GetBytes(xml), useAsync);

    public static async Task<NzbDocument> ParseAsync(byte[] bytes, bool useAsync)
    {
        var parser = new NzbParser();
        using var stream = new MemoryStream(bytes, writable: false);
        var token = TestContext.Current.CancellationToken;
        return useAsync ? await parser.ParseAsync(stream, token) : parser.Parse(stream, token);
    }

    public static async Task<NzbFormatException> ParseFailsAsync(string xml, bool useAsync) =>
        await Assert.ThrowsAsync<NzbFormatException>(() => ParseAsync(xml, useAsync));

    // Every value of a document as text, to compare parses and to search for leaked content.
    public static string Describe(NzbDocument document)
    {
        var text = new StringBuilder();
        text.Append("name=").Append(document.Meta.Name).Append(" category=").Append(document.Meta.Category).AppendLine();
        foreach (var (type, value) in document.Meta.All)
            text.Append("meta ").Append(type).Append('=').Append(value).AppendLine();
        foreach (var file in document.Files)
        {
            text.Append("file ").Append(file.Subject).Append(" | ").Append(file.FileName).Append(" | ")
                .Append(file.Poster).Append(" | ").Append(file.PostedAt?.ToUnixTimeSeconds()).Append(" | ")
                .Append(string.Join(',', file.Groups)).Append(" | ").Append(file.EncodedBytes).Append(" | missing ")
                .Append(string.Join(',', file.MissingSegmentNumbers)).AppendLine();
            foreach (var segment in file.Segments.Span)
                text.Append(segment.Number).Append(' ').Append(segment.Bytes).Append(' ').Append(segment.MessageId).AppendLine();
        }

        return text.ToString();
    }
}
