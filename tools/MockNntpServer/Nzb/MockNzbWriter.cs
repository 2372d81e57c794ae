using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Posting;

namespace NzbDav.MockNntp.Nzb;

/// <summary>Writes an NZB 1.1 document (DOCTYPE, namespace, meta name) for the server's files.</summary>
public static class MockNzbWriter
{
    public static void Write(Stream destination, IReadOnlyList<MockFile> files, string? title, DateTimeOffset postedAt)
    {
        ArgumentNullException.ThrowIfNull(files);
        // The same document a poster writes for what it posted: the mock's files seen as posted ones.
        var posted = files.Select(file => new PostedFile(file.Name, file.Size, MockArticleFraming.Subject(file, files.Count),
            [.. file.Articles.Select(a => new PostedSegment(a.Number, a.EncodedSize, a.MessageId))])).ToList();
        PostedNzbWriter.Write(destination, posted, title ?? (files.Count > 0 ? Path.GetFileNameWithoutExtension(files[0].Name) : "mock"),
            MockArticleFraming.Newsgroup, MockArticleFraming.Poster, postedAt);
    }
}
