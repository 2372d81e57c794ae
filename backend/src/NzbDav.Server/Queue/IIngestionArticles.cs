using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>Articles of the job being ingested, fetched on demand as queue operations (pipelined with the job's other fetches).</summary>
public interface IIngestionArticles
{
    /// <summary>One article of <paramref name="file"/>, decoded: its yEnc header and up to <paramref name="capacity"/> bytes.</summary>
    /// <exception cref="IngestionFailedException">The article is missing, corrupt or unreachable on every provider.</exception>
    Task<(YencHeader Header, ReadOnlyMemory<byte> Bytes)> FetchArticleAsync(NzbFile file, string messageId, int capacity, CancellationToken cancellationToken);
}
