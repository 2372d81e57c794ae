using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Hosting;

/// <summary>
/// One in-memory session of <see cref="WarmupArticles"/>: BODY hands the article's bytes to the target
/// as a decoding session does (header, data in pieces, trailer), from a thread-pool thread, as a
/// receive loop would, so the reader's awaits really suspend and resume. The warm-up reads bodies
/// only; the other commands are not part of the read path.
/// </summary>
internal sealed class WarmupSession(WarmupArticles articles, UsenetProviderOptions provider) : INntpConnection
{
    private volatile bool _disposed;
    private long _lastActivityTicks = DateTime.UtcNow.Ticks;

    public string ProviderName => provider.Name;

    public int PipelineDepth => provider.PipelineDepth;

    public bool IsUsable => !_disposed;

    public DateTime LastActivityUtc => new(Interlocked.Read(ref _lastActivityTicks), DateTimeKind.Utc);

    public async Task<YencHeader> BodyAsync(string messageId, IYencBodyTarget target, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(target);
        ObjectDisposedException.ThrowIf(_disposed, this);
        var part = articles.PartOf(messageId);
        if (part == 0)
            throw new NntpArticleNotFoundException(messageId);
        await Task.Yield();
        cancellationToken.ThrowIfCancellationRequested();

        var size = articles.SegmentBytes;
        var header = new YencHeader(WarmupArticles.FileName, articles.FileSize, 128, part, articles.MessageIds.Count, (long)(part - 1) * size, size);
        target.Begin(header);
        for (var written = 0; written < size;)
        {
            var span = target.GetSpan();
            var count = Math.Min(span.Length, size - written);
            span[..count].Clear();
            target.Advance(count);
            written += count;
        }

        target.Complete(new YencTrailer(size, part, PartCrc32: null, FileCrc32: null));
        Interlocked.Exchange(ref _lastActivityTicks, DateTime.UtcNow.Ticks);
        return header;
    }

    public Task<bool> StatAsync(string messageId, CancellationToken cancellationToken) =>
        throw new NotSupportedException("The warm-up sessions answer BODY only.");

    public Task<IReadOnlyList<KeyValuePair<string, string>>> HeadAsync(string messageId, CancellationToken cancellationToken) =>
        throw new NotSupportedException("The warm-up sessions answer BODY only.");

    public Task<DateTimeOffset> DateAsync(CancellationToken cancellationToken) =>
        throw new NotSupportedException("The warm-up sessions answer BODY only.");

    public ValueTask DisposeAsync()
    {
        _disposed = true;
        return ValueTask.CompletedTask;
    }
}
