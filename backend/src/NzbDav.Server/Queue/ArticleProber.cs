using NzbDav.Archives.Release;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>The article reads of one ingestion, all through the job's pipelined <see cref="ArticleFetcher"/>.</summary>
internal sealed class ArticleProber(ArticleFetcher fetcher, HeadBudget budget) : IIngestionArticles
{
    // A PAR2 index file is a few hundred KiB; anything far larger is a recovery volume we do not need.
    private const long MaxPar2Bytes = 32L * 1024 * 1024;

    /// <summary>First article of every file, all requested at once; results in NZB order.</summary>
    public async Task<ProbedFile[]> ProbeAsync(IReadOnlyList<NzbFile> files, CancellationToken cancellationToken)
    {
        var probes = new Task<ProbedFile>[files.Count];
        for (var index = 0; index < probes.Length; index++)
            probes[index] = ProbeAsync(index, files[index], cancellationToken);
        return await Task.WhenAll(probes);
    }

    /// <summary>Every article of a (small) PAR2 file, decoded and concatenated; its probed first article is reused.</summary>
    public async Task<byte[]?> FetchWholeAsync(ProbedFile file, CancellationToken cancellationToken)
    {
        var size = file.Header.FileSize;
        if (size > MaxPar2Bytes)
            return null;
        var data = new byte[size];
        var segments = file.File.Segments.ToArray();
        var firstIsWhole = file.Head.Length == Math.Min(file.PartSize, size);
        if (firstIsWhole)
            file.Head.Span.CopyTo(data);
        var fetches = new List<Task>(segments.Length);
        for (var i = firstIsWhole ? 1 : 0; i < segments.Length; i++)
            fetches.Add(FetchPartAsync(file, segments[i].MessageId, data, cancellationToken));
        await Task.WhenAll(fetches);
        return data;
    }

    /// <inheritdoc />
    public async Task<(YencHeader Header, ReadOnlyMemory<byte> Bytes)> FetchArticleAsync(
        NzbFile file, string messageId, int capacity, CancellationToken cancellationToken)
    {
        CaptureTarget? target = null;
        var header = await FetchAsync(file, messageId, () => target = new CaptureTarget(capacity), cancellationToken);
        return (header, target!.Captured);
    }

    private async Task<ProbedFile> ProbeAsync(int index, NzbFile file, CancellationToken cancellationToken)
    {
        HeadCaptureTarget? target = null;
        var header = await FetchAsync(file, file.Segments.Span[0].MessageId, () => target = new HeadCaptureTarget(budget), cancellationToken);
        var head = target!.Captured;
        return new ProbedFile(index, file, header, head, ReleaseFileClassifier.Classify(head.Span, header.FileName));
    }

    private async Task FetchPartAsync(ProbedFile file, string messageId, byte[] data, CancellationToken cancellationToken)
    {
        var (header, bytes) = await FetchArticleAsync(file.File, messageId, (int)Math.Min(data.Length, int.MaxValue), cancellationToken);
        if (header.PartBegin < 0 || header.PartBegin + bytes.Length > data.Length)
            throw new IngestionFailedException($"PAR2 file '{file.Header.FileName}' has a part outside its size.");
        bytes.Span.CopyTo(data.AsSpan((int)header.PartBegin));
    }

    private async Task<YencHeader> FetchAsync(NzbFile file, string messageId, Func<IYencBodyTarget> newTarget, CancellationToken cancellationToken)
    {
        try
        {
            return await fetcher.FetchAsync(messageId, newTarget).WaitAsync(cancellationToken);
        }
        catch (ArticleMissingException ex)
        {
            throw new IngestionFailedException($"Article <{messageId}> of '{file.FileName}' is missing on every provider ({string.Join(", ", ex.ProvidersTried)}).", ex);
        }
        catch (YencException ex)
        {
            throw new IngestionFailedException($"Article <{messageId}> of '{file.FileName}' is corrupt and no other provider has it: {ex.Message}", ex);
        }
        catch (ArticleFetchFailedException ex)
        {
            throw new IngestionFailedException($"Could not fetch article <{messageId}> of '{file.FileName}': {ex.Message}", ex);
        }
        catch (NoProviderAvailableException ex)
        {
            throw new IngestionFailedException("No Usenet provider is reachable: " + ex.Message, ex);
        }
    }
}
