using System.Globalization;
using System.Text;

namespace NzbDav.MockNntp.Articles;

/// <summary>Formats the per-article pieces around shared encoded data: yEnc header/trailer and NNTP headers.</summary>
internal static class MockArticleFraming
{
    public const string Newsgroup = "alt.binaries.nzbdav.mock";
    public const string Poster = "NzbDav Mock <mock@nzbdav.invalid>";

    public static byte[] YencHeader(MockFile file, int part, int totalParts, long begin, int size, long? claimedFileSize = null) =>
        Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture,
            $"=ybegin part={part} total={totalParts} line={YencDataLines.LineLength} size={claimedFileSize ?? file.Size} name={file.Name}\r\n=ypart begin={begin + 1} end={begin + size}\r\n"));

    public static byte[] YencTrailer(int part, int size, uint crc) =>
        Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"=yend size={size} part={part} pcrc32={crc:x8}\r\n"));

    public static byte[] YencHeader(MockArticle article, long? claimedFileSize = null) =>
        YencHeader(article.File, article.Number, article.File.Articles.Count, article.PartBegin, article.PartSize, claimedFileSize);

    public static long EncodedSize(MockFile file, int part, int totalParts, long begin, int size, MockEncodedData data) =>
        YencHeader(file, part, totalParts, begin, size).Length + data.Lines.Length + YencTrailer(part, size, data.Crc32).Length;

    /// <summary>The subject a poster would use, as in the NZB.</summary>
    public static string Subject(MockFile file, int fileCount) =>
        string.Create(CultureInfo.InvariantCulture, $"[{file.Index + 1}/{fileCount}] - \"{file.Name}\" yEnc (1/{file.Articles.Count})");

    /// <summary>Header lines (CRLF each, no blank line) for HEAD and ARTICLE; one is folded on purpose.</summary>
    public static byte[] NntpHeaders(MockArticle article, DateTimeOffset postedAt)
    {
        var text = string.Create(CultureInfo.InvariantCulture,
            $"Path: mock!not-for-mail\r\nFrom: {Poster}\r\nNewsgroups: {Newsgroup}\r\n" +
            $"Subject: \"{article.File.Name}\" yEnc ({article.Number}/{article.File.Articles.Count})\r\n" +
            $"Message-ID: <{article.MessageId}>\r\nDate: {postedAt.ToString("r", CultureInfo.InvariantCulture)}\r\n" +
            $"Bytes: {article.EncodedSize}\r\nX-Mock-Server: NzbDav\r\n MockNntpServer\r\n");
        return Encoding.UTF8.GetBytes(text);
    }
}
