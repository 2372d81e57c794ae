namespace NzbDav.MockNntp.Articles;

/// <summary>A file posted to the mock server, split into yEnc articles like a poster would.</summary>
public sealed class MockFile
{
    private readonly IMockFileContent _content;
    private readonly List<MockArticle> _articles = [];

    internal MockFile(int index, string name, int segmentSize, IMockFileContent content, Func<int, int, string> messageIds)
        : this(index, name, EqualParts(content.Length, segmentSize), content, messageIds)
    {
    }

    /// <summary>A file posted in parts of the given sizes (they must add up to the content length).</summary>
    internal MockFile(int index, string name, IReadOnlyList<int> partSizes, IMockFileContent content, Func<int, int, string> messageIds)
    {
        if (partSizes.Count == 0 || partSizes.Any(s => s <= 0) || partSizes.Sum(s => (long)s) != content.Length)
        {
            throw new ArgumentException($"Part sizes must be positive and add up to the file's {content.Length} bytes.", nameof(partSizes));
        }
        Index = index;
        Name = name;
        SegmentSize = partSizes[0];
        _content = content;
        var parts = partSizes.Count;
        var begin = 0L;
        for (var i = 0; i < parts; i++)
        {
            var size = partSizes[i];
            var encodedSize = MockArticleFraming.EncodedSize(this, i + 1, parts, begin, size, content.Encode(i, begin, size));
            _articles.Add(new MockArticle(this, messageIds(index, i + 1), i + 1, begin, size, encodedSize));
            begin += size;
        }
    }

    private static int[] EqualParts(long length, int segmentSize)
    {
        var parts = (int)((length + segmentSize - 1) / segmentSize);
        return Enumerable.Range(0, parts).Select(i => (int)Math.Min(segmentSize, length - ((long)i * segmentSize))).ToArray();
    }

    /// <summary>Position among the server's files (0-based).</summary>
    public int Index { get; }

    /// <summary>The file name (yEnc <c>name=</c> and the quoted part of the subject).</summary>
    public string Name { get; }

    /// <summary>Decoded size in bytes.</summary>
    public long Size => _content.Length;

    /// <summary>Decoded bytes per article (all but the last; the first part's size for a file added with explicit part sizes).</summary>
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
