using NzbDav.Archives.Release;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Queue;

/// <summary>Article fetches of ingestion, all as <see cref="OperationKind.Queue"/> so streaming keeps its share.</summary>
internal sealed class ArticleProber(UsenetClient client, int concurrency)
{
    // Enough for the PAR2 16 KiB hash and every magic-byte check.
    private const int HeadBytes = Par2Hashes.QuickHashLength;

    // A PAR2 index file is a few hundred KiB; anything far larger is a recovery volume we do not need.
    private const long MaxPar2Bytes = 32L * 1024 * 1024;

    /// <summary>First article of every file, concurrently; results in NZB order.</summary>
    public async Task<ProbedFile[]> ProbeAsync(IReadOnlyList<NzbFile> files, CancellationToken cancellationToken)
    {
        var probed = new ProbedFile[files.Count];
        var options = new ParallelOptions { MaxDegreeOfParallelism = Math.Max(1, concurrency), CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(Enumerable.Range(0, files.Count), options, async (index, ct) =>
        {
            var file = files[index];
            var first = file.Segments.Span[0];
            var target = new CaptureTarget(HeadBytes);
            var header = await FetchAsync(file, first.MessageId, () => target = new CaptureTarget(HeadBytes), ct);
            var head = target.Captured;
            probed[index] = new ProbedFile(index, file, header, head, ReleaseFileClassifier.Classify(head.Span, header.FileName));
        });
        return probed;
    }

    /// <summary>Every article of a (small) PAR2 file, decoded and concatenated.</summary>
    public async Task<byte[]?> FetchWholeAsync(ProbedFile file, CancellationToken cancellationToken)
    {
        if (file.Header.FileSize > MaxPar2Bytes)
            return null;
        var data = new byte[file.Header.FileSize];
        foreach (var segment in file.File.Segments.ToArray())
        {
            var target = new CaptureTarget((int)MaxPar2Bytes);
            var header = await FetchAsync(file.File, segment.MessageId, () => target = new CaptureTarget((int)MaxPar2Bytes), cancellationToken);
            var bytes = target.Captured.Span;
            if (header.PartBegin < 0 || header.PartBegin + bytes.Length > data.Length)
                throw new IngestionFailedException($"PAR2 file '{file.Header.FileName}' has a part outside its size.");
            bytes.CopyTo(data.AsSpan((int)header.PartBegin));
        }

        return data;
    }

    /// <summary>One article, decoded: its yEnc header and up to <paramref name="capacity"/> bytes.</summary>
    public async Task<(Usenet.Yenc.YencHeader Header, ReadOnlyMemory<byte> Bytes)> FetchArticleAsync(
        NzbFile file, string messageId, int capacity, CancellationToken cancellationToken)
    {
        var target = new CaptureTarget(capacity);
        var header = await FetchAsync(file, messageId, () => target = new CaptureTarget(capacity), cancellationToken);
        return (header, target.Captured);
    }

    private async Task<Usenet.Yenc.YencHeader> FetchAsync(NzbFile file, string messageId, Func<CaptureTarget> newTarget, CancellationToken cancellationToken)
    {
        try
        {
            return await client.BodyAsync(messageId, () => newTarget(), OperationKind.Queue, cancellationToken);
        }
        catch (ArticleMissingException ex)
        {
            throw new IngestionFailedException($"Article <{messageId}> of '{file.FileName}' is missing on every provider ({string.Join(", ", ex.ProvidersTried)}).", ex);
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
