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
    private readonly ConcurrentDictionary<string, bool> _wrongFileSize = new(StringComparer.Ordinal);
    private readonly MockBehavior _behavior;
    private readonly int _seed;
    // Unique per server instance, so NZBs from two servers never share message-ids.
    private readonly string _instanceToken = Guid.NewGuid().ToString("N")[..12];
    private readonly ConcurrentDictionary<string, MockArticleDelay> _delays = new(StringComparer.Ordinal);

    internal MockArticleStore(int seed, MockBehavior behavior, string? messageIdToken = null)
    {
        _seed = seed;
        _behavior = behavior;
        _instanceToken = messageIdToken ?? _instanceToken;
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

    /// <summary>Adds a file whose content is <paramref name="data"/>, posted in parts of the given (possibly unequal) sizes.</summary>
    public MockFile AddFile(string name, byte[] data, IReadOnlyList<int> partSizes)
    {
        ArgumentNullException.ThrowIfNull(partSizes);
        return Add(name, _ => new BytesContent(data), (index, content, ids) => new MockFile(index, name, partSizes, content, ids));
    }

    /// <summary>
    /// The next <paramref name="times"/> article commands for <paramref name="article"/> are answered
    /// only after an extra <paramref name="delay"/> (the connection's later answers wait behind it,
    /// as on a stalled provider connection); later requests are answered normally.
    /// </summary>
    public void SetDelay(MockArticle article, TimeSpan delay, int times = 1) =>
        _delays[article.MessageId] = new MockArticleDelay(delay, times);

    /// <summary>Takes one use of a delay set by <see cref="SetDelay"/>; zero when none is left.</summary>
    internal TimeSpan TakeDelay(MockArticle article)
    {
        while (_delays.TryGetValue(article.MessageId, out var delay))
        {
            var next = delay with { Times = delay.Times - 1 };
            var updated = next.Times > 0
                ? _delays.TryUpdate(article.MessageId, next, delay)
                : _delays.TryRemove(new KeyValuePair<string, MockArticleDelay>(article.MessageId, delay));
            if (updated)
            {
                return delay.Delay;
            }
        }
        return TimeSpan.Zero;
    }

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

    /// <summary>
    /// Makes parts <paramref name="firstPart"/>..<paramref name="lastPart"/> (1-based, inclusive) of
    /// <paramref name="file"/> answer 430 (<paramref name="missing"/>) or be served again, as when a
    /// provider loses articles to a takedown or gets them back. Answers how many changed.
    /// </summary>
    public int SetMissing(MockFile file, int firstPart, int lastPart, bool missing)
    {
        ArgumentNullException.ThrowIfNull(file);
        ArgumentOutOfRangeException.ThrowIfLessThan(firstPart, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(lastPart, file.Articles.Count);
        ArgumentOutOfRangeException.ThrowIfLessThan(lastPart, firstPart);
        for (var part = firstPart; part <= lastPart; part++)
        {
            SetMissing(file.Articles[part - 1], missing);
        }
        return lastPart - firstPart + 1;
    }

    /// <summary>Drops every <see cref="SetMissing(MockArticle, bool)"/> override: articles follow <see cref="MockBehavior.MissingFraction"/> again.</summary>
    public void ClearMissing() => _missingOverrides.Clear();

    /// <summary>Serves this article with one data character changed, so its CRC no longer matches (size and framing intact).</summary>
    public void SetCorrupt(MockArticle article, bool corrupt) => _corrupt[article.MessageId] = corrupt;

    /// <summary>
    /// Serves this article with a yEnc header whose size= (the whole file's size) is one byte more
    /// than the file's: a copy whose data and CRC are fine but whose header contradicts every other part.
    /// </summary>
    public void SetWrongFileSize(MockArticle article, bool wrong) => _wrongFileSize[article.MessageId] = wrong;

    /// <summary>Whether <see cref="SetWrongFileSize"/> marked the article.</summary>
    public bool HasWrongFileSize(MockArticle article) => _wrongFileSize.TryGetValue(article.MessageId, out var wrong) && wrong;

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
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentSize);
        return Add(name, content, (index, source, ids) => new MockFile(index, name, segmentSize, source, ids));
    }

    private MockFile Add(string name, Func<int, IMockFileContent> content, Func<int, IMockFileContent, Func<int, int, string>, MockFile> create)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
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
            file = create(index, source, (fileIndex, part) => $"{_instanceToken}.{fileIndex}.{part}@mock.nzbdav");
            _files.Add(file);
        }
        foreach (var article in file.Articles)
        {
            _byId[article.MessageId] = article;
        }
        return file;
    }
}
