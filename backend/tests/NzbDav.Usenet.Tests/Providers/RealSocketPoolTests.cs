using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;
using static NzbDav.Usenet.Tests.Providers.RealSocketKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>The pool and client against real loopback NNTP servers (the mock, on port 0).</summary>
public sealed class RealSocketPoolTests
{
    [Fact]
    public async Task A_hundred_requesters_never_push_the_server_past_ten_connections()
    {
        await using var server = await StartServerAsync(maxConnections: 10, latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.Files[0];
        var provider = Real("capped", server, maxConnections: 10);
        await using var pool = new ProviderConnectionPool(provider, new NntpConnectionFactory(NullLoggerFactory.Instance), TimeProvider.System, NullLogger.Instance);
        var verified = 0;

        async Task Requester(int seed)
        {
            for (var i = 0; i < 5; i++)
            {
                var article = file.Articles[(seed + i) % file.Articles.Count];
                await using var lease = await pool.RentAsync(Token);
                var target = new RecordingTarget();
                await lease.Connection.BodyAsync(article.MessageId, target, Token);
                Assert.Equal(file.ReadExpected(article.PartBegin, article.PartSize), target.Data);
                Interlocked.Increment(ref verified);
            }
        }

        await Task.WhenAll(Enumerable.Range(0, 100).Select(seed => Task.Run(() => Requester(seed), Token)));

        var stats = pool.GetStats();
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"pool: 100 requesters x 5 BODY = {verified} verified; pool peak open {stats.PeakOpen}/10; " +
            $"server peak connections {server.Stats.PeakConnections}, accepted {server.Stats.TotalConnections}, rejected {server.Stats.RejectedConnections}");
        Assert.Equal(500, verified);
        Assert.InRange(stats.PeakOpen, 1, 10);
        Assert.InRange(server.Stats.PeakConnections, 1, 10);
        Assert.Equal(0, server.Stats.RejectedConnections);
    }

    [Fact]
    public async Task The_client_with_its_limiter_keeps_a_hundred_callers_within_the_cap()
    {
        await using var server = await StartServerAsync(maxConnections: 10, latency: TimeSpan.FromMilliseconds(2));
        var file = server.Store.Files[0];
        var options = new UsenetOptions { Providers = [Real("capped", server, maxConnections: 10)] };
        var limiter = new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers));
        await using var client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance), limiter, TimeProvider.System, NullLogger<UsenetClient>.Instance);

        var kinds = new[] { OperationKind.Streaming, OperationKind.Queue, OperationKind.HealthCheck };
        var tasks = Enumerable.Range(0, 100).Select(i => Task.Run(async () =>
        {
            var article = file.Articles[i % file.Articles.Count];
            var target = new RecordingTarget();
            await client.BodyAsync(article.MessageId, () => target = new RecordingTarget(), kinds[i % 3], Token);
            Assert.Equal(file.ReadExpected(article.PartBegin, article.PartSize), target.Data);
            Assert.True(await client.StatAsync(article.MessageId, kinds[i % 3], Token));
        }, Token));
        await Task.WhenAll(tasks);

        var pool = client.GetProviderStatus().Single().Pool;
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"client: 100 callers BODY+STAT; pool peak open {pool.PeakOpen}/10; server peak {server.Stats.PeakConnections}, rejected {server.Stats.RejectedConnections}");
        Assert.InRange(pool.PeakOpen, 1, 10);
        Assert.InRange(server.Stats.PeakConnections, 1, 10);
        Assert.Equal(0, server.Stats.RejectedConnections);
        Assert.Equal(0, limiter.GetStats().InUse);
    }

    [Fact]
    public async Task An_article_missing_on_the_first_provider_is_served_by_the_next()
    {
        await using var first = await StartServerAsync(maxConnections: 4);
        await using var second = await StartServerAsync(maxConnections: 4);
        // Message-ids are unique per server: the first server answers 430 for the second's article.
        var article = second.Store.Files[0].Articles[3];
        Assert.False(first.Store.TryGetArticle(article.MessageId, out _));
        var options = new UsenetOptions { Providers = [Real("a", first, 4, priority: 0), Real("b", second, 4, priority: 1)] };
        await using var client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance),
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers)), TimeProvider.System, NullLogger<UsenetClient>.Instance);

        var target = new RecordingTarget();
        var header = await client.BodyAsync(article.MessageId, () => target = new RecordingTarget(), OperationKind.Streaming, Token);

        Assert.Equal(article.PartBegin, header.PartBegin);
        Assert.Equal(second.Store.Files[0].ReadExpected(article.PartBegin, article.PartSize), target.Data);
        Assert.Equal(1, first.Stats.GetCommandCount(MockCommandKind.Body));
        Assert.Equal(1, second.Stats.GetCommandCount(MockCommandKind.Body));

        second.Store.SetMissing(article, true);
        var missing = await Assert.ThrowsAsync<ArticleMissingException>(
            () => client.BodyAsync(article.MessageId, () => new RecordingTarget(), OperationKind.Streaming, Token));
        Assert.Equal(["a", "b"], missing.ProvidersTried);
    }

    [Fact]
    public async Task A_provider_that_refuses_connections_trips_its_breaker_and_is_skipped()
    {
        await using var up = await StartServerAsync(maxConnections: 4);
        var downPort = ClosedPort();
        var down = new UsenetProviderOptions { Name = "down", Host = "127.0.0.1", Port = downPort, UseTls = false, MaxConnections = 4, Priority = 0 };
        var options = new UsenetOptions
        {
            Providers = [down, Real("up", up, 4, priority: 1)],
            MaxAttemptsPerProvider = 1,
            BreakerFailureThreshold = 2,
            BreakerCooldown = TimeSpan.FromMinutes(5),
        };
        var factory = new CountingConnectionFactory(new NntpConnectionFactory(NullLoggerFactory.Instance));
        await using var client = new UsenetClient(options, factory, new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers)),
            TimeProvider.System, NullLogger<UsenetClient>.Instance);
        var file = up.Store.Files[0];

        for (var i = 0; i < 6; i++)
        {
            var article = file.Articles[i];
            var target = new RecordingTarget();
            await client.BodyAsync(article.MessageId, () => target = new RecordingTarget(), OperationKind.Streaming, Token);
            Assert.Equal(file.ReadExpected(article.PartBegin, article.PartSize), target.Data);
        }

        Assert.Equal(2, factory.AttemptsOn("down")); // the threshold, then skipped
        var status = client.GetProviderStatus();
        Assert.Equal(CircuitState.Open, status.Single(s => s.Name == "down").Circuit);
        Assert.Equal(CircuitState.Closed, status.Single(s => s.Name == "up").Circuit);
        // What the dashboard shows: the streak, since when, and the last error in words to act on.
        var breaker = status.Single(s => s.Name == "down").Breaker;
        Assert.Equal((2, 2L), (breaker.ConsecutiveFailures, breaker.TotalFailures));
        Assert.Equal($"nothing accepts connections on 127.0.0.1:{downPort}: check the host and port (119 without TLS, 563 with TLS).", breaker.LastError);
        Assert.NotNull(breaker.FailingSince);
        Assert.True(breaker.LastErrorAt >= breaker.FailingSince);
        Assert.Equal(default, status.Single(s => s.Name == "up").Breaker with { State = CircuitState.Closed });
        Assert.Equal(6, up.Stats.GetCommandCount(MockCommandKind.Body));
    }

    [Fact]
    public async Task A_read_cancelled_mid_answer_breaks_its_session_without_counting_against_the_provider()
    {
        await using var server = await StartServerAsync(maxConnections: 4);
        // Slow answers: a body is still arriving when the reader gives up on it (a player seeking away).
        server.Behavior.BandwidthBytesPerSecond = 64 * 1024;
        var options = new UsenetOptions { Providers = [Real("only", server, 4)], BreakerFailureThreshold = 1, BreakerCooldown = TimeSpan.FromMinutes(5) };
        await using var client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance),
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers)), TimeProvider.System, NullLogger<UsenetClient>.Instance);
        var file = server.Store.Files[0];

        using var seekAway = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var first = new CancellingTarget(seekAway);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(
            () => client.BodyAsync(file.Articles[0].MessageId, () => first, OperationKind.Streaming, seekAway.Token));
        Assert.True(first.Received > 0, "the body had begun to arrive");

        // With a threshold of one failure, a cancellation counted as one would have opened the breaker.
        var breaker = client.GetProviderStatus().Single().Breaker;
        Assert.Equal((CircuitState.Closed, 0, 0L, (string?)null), (breaker.State, breaker.ConsecutiveFailures, breaker.TotalFailures, breaker.LastError));
        server.Behavior.BandwidthBytesPerSecond = 0;
        var target = new RecordingTarget();
        await client.BodyAsync(file.Articles[1].MessageId, () => target = new RecordingTarget(), OperationKind.Streaming, Token);
        Assert.Equal(file.ReadExpected(file.Articles[1].PartBegin, file.Articles[1].PartSize), target.Data);
    }

    /// <summary>Cancels its read once the first decoded bytes arrive.</summary>
    private sealed class CancellingTarget(CancellationTokenSource cancel) : IYencBodyTarget
    {
        private readonly byte[] _chunk = new byte[4096];

        public long Received { get; private set; }

        public void Begin(NzbDav.Usenet.Yenc.YencHeader header)
        {
        }

        public Span<byte> GetSpan() => _chunk;

        public void Advance(int count)
        {
            Received += count;
            cancel.Cancel();
        }

        public void Complete(NzbDav.Usenet.Yenc.YencTrailer trailer)
        {
        }
    }
}
