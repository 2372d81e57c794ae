namespace NzbDav.MockNntp.Articles;

/// <summary>A file posted to the mock server, split into yEnc articles like a poster would.</summary>
public sealed class MockFile
{
    private readonly IMockFileContent _content;
    private readonly List<MockArticle> _articles = [];

    internal MockFile(int index, string name, int segmentSize, IMockFileContent content, Func<int, int, string> messageIds)
    {
        Index = index;
        Name = name;
        SegmentSize = segmentSize;
        _content = content;
        var parts = (int)((content.Length + segmentSize - 1) / segmentSize);
        for (var i = 0; i < parts; i++)
        {
            var begin = (long)i * segmentSize;
            var size = (int)Math.Min(segmentSize, content.Length - begin);
            var encodedSize = MockArticleFraming.EncodedSize(this, i + 1, parts, begin, size, content.Encode(i, begin, size));
            _articles.Add(new MockArticle(this, messageIds(index, i + 1), i + 1, begin, size, encodedSize));
        }
    }

    /// <summary>Position among the server's files (0-based).</summary>
    public int Index { get; }

    /// <summary>The file name (yEnc <c>name=</c> and the quoted part of the subject).</summary>
    public string Name { get; }

    /// <summary>Decoded size in bytes.</summary>
    public long Size => _content.Length;

    /// <summary>Decoded bytes per article (all but the last).</summary>
    public int SegmentSize { get; }

    /// <summary>The articles in part order.</summary>
    public IReadOnlyList<MockArticle> Articles => _articles;

    /// <summary>Copies the file's true bytes at <paramref name="offset"/> into <paramref name="destination"/>, for verifying reads.</summary>
    public void ReadExpected(long offset, Span<byte> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        if (offset + destination.Length > Size)
        {
            throw new ArgumentOutOfRangeException(nameof(destination), $"Range {offset}+{destination.Length} is beyond the file's {Size} bytes.");
        }
        _content.Read(offset, destination);
    }

    /// <summary>The file's true bytes in a range, for verifying reads.</summary>
    public byte[] ReadExpected(long offset, int count)
    {
        var bytes = new byte[count];
        ReadExpected(offset, bytes);
        return bytes;
    }

    internal MockEncodedData EncodeArticle(MockArticle article) =>
        _content.Encode(article.Number - 1, article.PartBegin, article.PartSize);
}
