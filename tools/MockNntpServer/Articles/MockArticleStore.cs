using System.Collections.Concurrent;

namespace NzbDav.MockNntp.Articles;

/// <summary>The server's files and articles. Thread-safe: tests may add files while the server runs.</summary>
public sealed class MockArticleStore
{
    private readonly Lock _filesLock = new();
    private readonly List<MockFile> _files = [];
    private readonly ConcurrentDictionary<string, MockArticle> _byId = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, bool> _missingOverrides = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, bool> _corrupt = new(StringComparer.Ordinal);
    private readonly MockBehavior _behavior;
    private readonly int _seed;
    // Unique per server instance, so NZBs from two servers never share message-ids.
    private readonly string _instanceToken = Guid.NewGuid().ToString("N")[..12];

    internal MockArticleStore(int seed, MockBehavior behavior)
    {
        _seed = seed;
        _behavior = behavior;
    }

    /// <summary>The files in the order they were added.</summary>
    public IReadOnlyList<MockFile> Files
    {
        get
        {
            lock (_filesLock)
            {
                return _files.ToArray();
            }
        }
    }

    /// <summary>Adds a pseudo-random file of <paramref name="size"/> bytes that is never held in memory.</summary>
    public MockFile AddGeneratedFile(string name, long size, int segmentSize) =>
        Add(name, segmentSize, index => new GeneratedContent(size, segmentSize, HashCode.Combine(_seed, index)));

    /// <summary>Adds a file whose content is <paramref name="data"/> (kept in memory).</summary>
    public MockFile AddFile(string name, byte[] data, int segmentSize) =>
        Add(name, segmentSize, _ => new BytesContent(data));

    /// <summary>Posts a file from disk; its parts are read when requested.</summary>
    public MockFile PostFile(string path, int segmentSize) =>
        Add(Path.GetFileName(path), segmentSize, _ => new DiskFileContent(path));

    /// <summary>Finds an article by message-id, with or without angle brackets.</summary>
    public bool TryGetArticle(string messageId, out MockArticle article)
    {
        var id = messageId.StartsWith('<') && messageId.EndsWith('>') ? messageId[1..^1] : messageId;
        return _byId.TryGetValue(id, out article!);
    }

    /// <summary>Forces an article to be missing (430) or present, overriding <see cref="MockBehavior.MissingFraction"/>.</summary>
    public void SetMissing(MockArticle article, bool missing) => _missingOverrides[article.MessageId] = missing;

    /// <summary>Serves this article with one data character changed, so its CRC no longer matches (size and framing intact).</summary>
    public void SetCorrupt(MockArticle article, bool corrupt) => _corrupt[article.MessageId] = corrupt;

    /// <summary>Whether <see cref="SetCorrupt"/> marked the article.</summary>
    public bool IsCorrupt(MockArticle article) => _corrupt.TryGetValue(article.MessageId, out var corrupt) && corrupt;

    /// <summary>Whether the server answers 430 for this article: the override, else a deterministic draw from the seed.</summary>
    public bool IsMissing(MockArticle article)
    {
        if (_missingOverrides.TryGetValue(article.MessageId, out var forced))
        {
            return forced;
        }
        var fraction = _behavior.MissingFraction;
        return fraction > 0 && SeededFraction.Of(_seed, article.File.Index, article.Number) < fraction;
    }

    private MockFile Add(string name, int segmentSize, Func<int, IMockFileContent> content)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentSize);
        if (name.AsSpan().ContainsAny('\r', '\n'))
        {
            throw new ArgumentException("A file name cannot contain line breaks.", nameof(name));
        }
        MockFile file;
        lock (_filesLock)
        {
            var index = _files.Count;
            var source = content(index);
            if (source.Length == 0)
            {
                throw new ArgumentException($"'{name}' is empty; a posted file needs at least one byte.", nameof(content));
            }
            file = new MockFile(index, name, segmentSize, source, (fileIndex, part) => $"{_instanceToken}.{fileIndex}.{part}@mock.nzbdav");
            _files.Add(file);
        }
        foreach (var article in file.Articles)
        {
            _byId[article.MessageId] = article;
        }
        return file;
    }
}
