using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Tests.Queue;

/// <summary>The ingestion's pipelined fetcher against the mock provider over loopback sockets.</summary>
public sealed class ArticleFetcherTests
{
    private const int SegmentSize = 3000;

    [Fact]
    public async Task Many_articles_arrive_intact_within_the_connection_cap()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var server = await StartAsync(TimeSpan.FromMilliseconds(5), ct);
        var file = server.Store.AddFile("data.bin", RandomBytes(60 * SegmentSize, 1), SegmentSize);
        await using var client = Client(server, maxConnections: 2);
        await using var fetcher = new ArticleFetcher(client, maxInFlight: 64, maxConnections: 2, ct);

        var fetches = file.Articles.Select(async article =>
        {
            CaptureTarget? target = null;
            var header = await fetcher.FetchAsync(article.MessageId, () => target = new CaptureTarget(SegmentSize));
            Assert.Equal(article.PartBegin, header.PartBegin);
            Assert.Equal(file.ReadExpected(article.PartBegin, article.PartSize), target!.Captured.ToArray());
        });
        await Task.WhenAll(fetches);

        Assert.InRange(server.Stats.PeakConnections, 1, 2);
        Assert.Equal(60, server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task A_missing_article_fails_with_the_providers_asked()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var server = await StartAsync(TimeSpan.Zero, ct);
        var file = server.Store.AddFile("data.bin", RandomBytes(4 * SegmentSize, 2), SegmentSize);
        server.Store.SetMissing(file.Articles[2], true);
        await using var client = Client(server, maxConnections: 2);
        await using var fetcher = new ArticleFetcher(client, 64, 2, ct);

        var results = file.Articles.Select(a => fetcher.FetchAsync(a.MessageId, () => new CaptureTarget(SegmentSize))).ToArray();

        var missing = await Assert.ThrowsAsync<ArticleMissingException>(() => results[2]);
        Assert.Equal(["mock"], missing.ProvidersTried);
        await Task.WhenAll(results.Where((_, i) => i != 2));
    }

    [Fact]
    public async Task A_corrupt_article_fails_naming_the_yenc_error()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var server = await StartAsync(TimeSpan.Zero, ct);
        var file = server.Store.AddFile("data.bin", RandomBytes(2 * SegmentSize, 3), SegmentSize);
        server.Store.SetCorrupt(file.Articles[0], true);
        await using var client = Client(server, maxConnections: 1);
        await using var fetcher = new ArticleFetcher(client, 64, 1, ct);

        var error = await Assert.ThrowsAsync<ArticleFetchFailedException>(() => fetcher.FetchAsync(file.Articles[0].MessageId, () => new CaptureTarget(SegmentSize)));
        // The only provider gets its attempts per provider (2), each copy corrupt: the CRC error is the reason.
        Assert.Equal(2, error.Failures.Count);
        Assert.All(error.Failures, f => Assert.IsAssignableFrom<YencException>(f.Error));
        Assert.IsAssignableFrom<YencException>(error.InnerException);
        await fetcher.FetchAsync(file.Articles[1].MessageId, () => new CaptureTarget(SegmentSize));
    }

    [Fact]
    public async Task Sessions_that_keep_breaking_fail_the_article_after_a_few_tries()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var server = await StartAsync(TimeSpan.Zero, ct);
        var file = server.Store.AddFile("data.bin", RandomBytes(SegmentSize, 4), SegmentSize);
        server.Behavior.DropFraction = 1;
        await using var client = Client(server, maxConnections: 2);
        await using var fetcher = new ArticleFetcher(client, 64, 2, ct);

        var error = await Assert.ThrowsAsync<ArticleFetchFailedException>(() => fetcher.FetchAsync(file.Articles[0].MessageId, () => new CaptureTarget(SegmentSize)));

        // The provider's attempts per provider, each on a fresh session; then nobody is left to ask.
        Assert.Equal(2, error.Failures.Count);
        Assert.Equal(2, server.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task Cancelling_the_job_cancels_queued_and_running_requests()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var server = await StartAsync(TimeSpan.FromSeconds(30), ct);
        var file = server.Store.AddFile("data.bin", RandomBytes(20 * SegmentSize, 5), SegmentSize);
        await using var client = Client(server, maxConnections: 1);
        using var job = CancellationTokenSource.CreateLinkedTokenSource(ct);
        await using var fetcher = new ArticleFetcher(client, 64, 1, job.Token);

        var results = file.Articles.Select(a => fetcher.FetchAsync(a.MessageId, () => new CaptureTarget(SegmentSize))).ToArray();
        await job.CancelAsync();

        foreach (var result in results)
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => result);
    }

    private static async Task<MockNntpServer> StartAsync(TimeSpan latency, CancellationToken cancellationToken)
    {
        var server = new MockNntpServer();
        server.Behavior.Latency = latency;
        await server.StartAsync(cancellationToken);
        return server;
    }

    private static UsenetClient Client(MockNntpServer server, int maxConnections)
    {
        var options = new UsenetOptions
        {
            Providers = [new UsenetProviderOptions { Name = "mock", Host = "127.0.0.1", Port = server.Port, UseTls = false, MaxConnections = maxConnections }],
        };
        return new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance),
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers)), TimeProvider.System, NullLogger<UsenetClient>.Instance);
    }

    private static byte[] RandomBytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
