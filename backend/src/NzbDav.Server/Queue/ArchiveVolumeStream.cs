using NzbDav.Archives;
using NzbDav.Archives.Entries;

namespace NzbDav.Server.Queue;

/// <summary>
/// One archive volume (an NZB file) as a seekable stream for reading headers at ingestion: the
/// probe's first article (usually kept whole) serves the start, where a RAR volume's headers are;
/// other reads fetch whole articles on demand (as queue operations) and keep the last few, so
/// consecutive headers in one article cost one fetch.
/// Only asynchronous reads are supported: archive readers read headers with <c>ReadAsync</c>.
/// </summary>
internal sealed class ArchiveVolumeStream : ReadOnlySeekableStream
{
    // Header reads touch a handful of articles per volume; a bound keeps a many-entry archive from
    // holding every article it visited.
    private const int CachedArticles = 8;

    private readonly IIngestionArticles _articles;
    private readonly ProbedFile _file;
    private readonly long _partSize;
    private readonly Lock _gate = new();
    private readonly List<(int Segment, Task<ReadOnlyMemory<byte>> Bytes)> _cache = [];

    public ArchiveVolumeStream(IIngestionArticles articles, ProbedFile file, string name)
    {
        _articles = articles;
        _file = file;
        Name = name;
        Length = file.Header.FileSize;
        _partSize = Math.Max(1, file.PartSize);
        var expected = Length == 0 ? 1 : (Length + _partSize - 1) / _partSize;
        if (file.File.IncompleteReason is { } incomplete)
            throw new IngestionFailedException($"Volume '{name}' is incomplete: {incomplete}.");
        if (expected != file.File.Segments.Length)
            throw new IngestionFailedException($"Volume '{name}' has {file.File.Segments.Length} articles but its yEnc size {Length} with {_partSize}-byte parts needs {expected}.");
    }

    public string Name { get; }

    /// <summary>Articles of the volume.</summary>
    public int ArticleCount => _file.File.Segments.Length;

    /// <summary>Told of every article this stream fetches for a read, so later volumes can fetch theirs ahead.</summary>
    public TailMirror? Mirror { get; set; }

    public ProbedFile File => _file;

    public override long Length { get; }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (buffer.IsEmpty || Position >= Length)
            return 0;
        var head = _file.Head;
        if (Position < head.Length)
        {
            var fromHead = (int)Math.Min(buffer.Length, head.Length - Position);
            head.Slice((int)Position, fromHead).CopyTo(buffer);
            Position += fromHead;
            return fromHead;
        }

        var segment = (int)(Position / _partSize);
        var bytes = await SegmentAsync(segment, cancellationToken);
        var offset = (int)(Position - (segment * _partSize));
        var count = Math.Min(buffer.Length, bytes.Length - offset);
        bytes.Slice(offset, count).CopyTo(buffer);
        Position += count;
        return count;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) =>
        throw new NotSupportedException("Archive volumes are read asynchronously only (each read may be a network round trip).");

    /// <summary>Starts fetching an article a later read is expected to need; a failure surfaces at that read.</summary>
    public void Prefetch(int segment, CancellationToken cancellationToken)
    {
        if (segment >= 0 && segment < ArticleCount)
            SegmentAsync(segment, cancellationToken, prefetch: true).ContinueWith(static t => _ = t.Exception, TaskScheduler.Default);
    }

    private Task<ReadOnlyMemory<byte>> SegmentAsync(int segment, CancellationToken cancellationToken, bool prefetch = false)
    {
        Task<ReadOnlyMemory<byte>> fetch;
        lock (_gate)
        {
            foreach (var (cached, bytes) in _cache)
            {
                if (cached == segment)
                    return bytes;
            }

            fetch = FetchAsync(segment, cancellationToken);
            if (_cache.Count == CachedArticles)
                _cache.RemoveAt(0);
            _cache.Add((segment, fetch));
        }

        if (!prefetch)
            Mirror?.OnFetched(this, segment, cancellationToken);
        return fetch;
    }

    private async Task<ReadOnlyMemory<byte>> FetchAsync(int segment, CancellationToken cancellationToken)
    {
        var begin = segment * _partSize;
        var size = Math.Min(_partSize, Length - begin);
        var (header, bytes) = await _articles.FetchArticleAsync(_file.File, _file.File.Segments.Span[segment].MessageId, (int)size, cancellationToken);
        // Layouts assume equal parts; an article elsewhere than assumed would map entries to wrong bytes.
        if (header.FileSize != Length || header.PartBegin != begin || header.PartSize != size || bytes.Length != size)
            throw new ArchiveFormatException($"Volume '{Name}' article {segment + 1} holds bytes {header.PartBegin}+{header.PartSize} of {header.FileSize}; expected {begin}+{size} of {Length} (irregular article sizes are not supported).");
        return bytes;
    }
}
