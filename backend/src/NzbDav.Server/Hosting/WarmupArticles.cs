using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Hosting;

/// <summary>
/// The articles of <see cref="StreamingPathWarmup"/>'s private file, served from memory: a
/// connection factory for a private <see cref="UsenetClient"/> whose sessions answer BODY without a
/// socket. Every article is <see cref="SegmentBytes"/> zero bytes.
/// </summary>
internal sealed class WarmupArticles : INntpConnectionFactory
{
    public const string FileName = "warm-up.bin";

    public WarmupArticles(int segments, int segmentBytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segments);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(segmentBytes);
        SegmentBytes = segmentBytes;
        // ".invalid" (RFC 2606) so the ids can never name a real article.
        MessageIds = [.. Enumerable.Range(1, segments).Select(part => $"{part}@warm-up.nzbdav.invalid")];
    }

    public IReadOnlyList<string> MessageIds { get; }

    public int SegmentBytes { get; }

    public long FileSize => (long)MessageIds.Count * SegmentBytes;

    public async Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(provider);
        // Completes later, as a connect does, so the pool's waits for a session really suspend.
        await Task.Yield();
        cancellationToken.ThrowIfCancellationRequested();
        return new WarmupSession(this, provider);
    }

    /// <summary>The 1-based part number of <paramref name="messageId"/>, or 0 when it is not one of the file's.</summary>
    public int PartOf(string messageId)
    {
        for (var i = 0; i < MessageIds.Count; i++)
        {
            if (string.Equals(MessageIds[i], messageId, StringComparison.Ordinal))
                return i + 1;
        }

        return 0;
    }
}
