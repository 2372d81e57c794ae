using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Queue;
using NzbDav.Server.WebDav;
using NzbDav.Streaming;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Runs the read path once, end to end, so the first playback and the first job after a start do
/// not compile it: a private <see cref="UsenetClient"/> whose sessions are real NNTP sessions over
/// in-memory pipes (<see cref="WarmupArticles"/>: send and receive loops, yEnc decoding), a private
/// stream factory and a <see cref="LayoutDavFileOpener"/> read a small file twice with a seek
/// (limiter, pool, the fetch engine, buffered and combined streams), then an
/// <see cref="ArticleFetcher"/> fetches every first article as a job's ingestion does. ReadyToRun compiles our methods ahead of time but not the runtime's generic
/// code instantiated over them (the state machine of every await on the path), which is what this
/// pays for; docs/benchmarks.md has the figures. No socket is opened, and nothing of it touches the
/// configured providers, their pools or the limiter; it all is disposed afterwards.
/// </summary>
internal static class StreamingPathWarmup
{
    private const int Segments = 16;
    private const int SegmentBytes = 64 * 1024;
    private const int ReadBytes = 16 * 1024;
    private const int Passes = 2;
    private const int Connections = 4;

    /// <summary>Runs the reads; returns the bytes read (two whole passes plus a read after each seek).</summary>
    public static async Task<long> RunAsync(StreamingOptions streaming, TimeProvider time, CancellationToken cancellationToken)
    {
        var articles = new WarmupArticles(Segments, SegmentBytes, cancellationToken);
        long total;
        // The host is never resolved: the sessions come from the in-memory factory.
        var provider = new UsenetProviderOptions { Name = "warm-up", Host = "warm-up.nzbdav.invalid", UseTls = false, MaxConnections = Connections };
        await using (var client = new UsenetClient(
            new UsenetOptions { Providers = [provider] },
            articles,
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(provider.MaxConnections)),
            time,
            NullLogger<UsenetClient>.Instance))
        {
            total = await ReadAsync(client, articles, streaming, cancellationToken);
            await FetchFirstArticlesAsync(client, articles, cancellationToken);
        }

        // Closing the client sent QUIT on every session; each responder has seen it or sees it now.
        await articles.WhenClosedAsync().WaitAsync(cancellationToken);
        return total;
    }

    private static async Task<long> ReadAsync(UsenetClient client, WarmupArticles articles, StreamingOptions streaming, CancellationToken cancellationToken)
    {
        using var layouts = new DavLayoutCache();
        var opener = new LayoutDavFileOpener(
            new NzbFileStreamFactory(client, streaming with { ConnectionsPerStream = Connections }, NullLoggerFactory.Instance), layouts);
        var item = new DavItem
        {
            Id = Guid.Empty,
            Name = WarmupArticles.FileName,
            Path = "/" + WarmupArticles.FileName,
            Size = articles.FileSize,
            Layout = DavFileLayoutCodec.Encode(new DavFileLayout([LayoutPart.WholeFile(articles.MessageIds, articles.FileSize, SegmentBytes)])),
        };
        var buffer = new byte[ReadBytes];
        long total = 0;
        for (var pass = 0; pass < Passes; pass++)
        {
            await using var stream = await opener.OpenAsync(item, item.Size, ranged: false, cancellationToken);
            int read;
            while ((read = await stream.ReadAsync(buffer, cancellationToken)) > 0)
                total += read;

            // A seek back into the file, as a player does when it scrubs.
            stream.Seek(articles.FileSize / 2, SeekOrigin.Begin);
            await stream.ReadExactlyAsync(buffer, cancellationToken);
            total += buffer.Length;
        }

        return total;
    }

    /// <summary>What a job's ingestion does first: every file's first article, pipelined on the queue pool.</summary>
    private static async Task FetchFirstArticlesAsync(UsenetClient client, WarmupArticles articles, CancellationToken cancellationToken)
    {
        await using var fetcher = new ArticleFetcher(client, Connections * 2, Connections, cancellationToken);
        await Task.WhenAll(articles.MessageIds.Select(id => fetcher.FetchAsync(id, () => new CaptureTarget(ReadBytes)))).WaitAsync(cancellationToken);
    }
}
