using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.MockNntp;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Tests.Mock;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>
/// Another client (the user's other downloader) holds the provider's connections, so connects get
/// a 502 greeting: that is a wait, not a provider fault.
/// </summary>
public sealed class ProviderFullTests
{
    private const int SegmentSize = 32 * 1024;

    [Fact]
    public async Task A_fetch_waits_while_a_foreign_client_holds_every_slot_and_succeeds_once_it_lets_go()
    {
        await using var server = await StartServerAsync(maxConnections: 2);
        var foreign = new[] { await MockNntpServerTests.ConnectReadyAsync(server.Port), await MockNntpServerTests.ConnectReadyAsync(server.Port) };
        var provider = Provider(server, "shared", TimeSpan.FromSeconds(60));
        // A threshold of one: a single failure report would open the breaker.
        var options = new UsenetOptions { Providers = [provider], BreakerFailureThreshold = 1, MaxAttemptsPerProvider = 1 };
        await using var client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance),
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers)), TimeProvider.System, NullLogger<UsenetClient>.Instance);
        var article = server.Store.Files[0].Articles[2];
        var target = new RecordingTarget();

        var fetch = client.BodyAsync(article.MessageId, () => target = new RecordingTarget(), OperationKind.Streaming, Token);
        while (server.Stats.RejectedConnections < 3)
        {
            await Task.Delay(10, Token);
        }

        Assert.False(fetch.IsCompleted);
        Assert.Equal(CircuitState.Closed, client.GetProviderStatus().Single().Circuit);
        foreach (var other in foreign)
        {
            await other.DisposeAsync();
        }

        var header = await fetch;

        Assert.Equal(article.PartBegin, header.PartBegin);
        Assert.Equal(server.Store.Files[0].ReadExpected(article.PartBegin, article.PartSize), target.Data);
        Assert.Equal(CircuitState.Closed, client.GetProviderStatus().Single().Circuit);
        Assert.InRange(server.Stats.PeakConnections, 1, 2);
    }

    [Fact]
    public async Task A_pool_gives_up_after_OperationTimeout_naming_the_provider_when_the_slots_never_free()
    {
        await using var server = await StartServerAsync(maxConnections: 1);
        await using var foreign = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        var factory = new CountingConnectionFactory(new NntpConnectionFactory(NullLoggerFactory.Instance));
        await using var pool = new ProviderConnectionPool(Provider(server, "crowded", TimeSpan.FromMilliseconds(400)), factory, TimeProvider.System, NullLogger.Instance);

        var error = await Assert.ThrowsAsync<ConnectionPoolTimeoutException>(() => pool.RentAsync(Token).AsTask());

        Assert.True(error.ProviderRefused);
        Assert.Equal("crowded", error.ProviderName);
        Assert.Contains("Provider 'crowded' refused new connections as full", error.Message);
        Assert.IsType<NntpServiceUnavailableException>(error.InnerException);
        Assert.True(factory.AttemptsOn("crowded") > 1, "a full provider is asked again before giving up");
        Assert.Equal(factory.AttemptsOn("crowded"), server.Stats.RejectedConnections);
        var stats = pool.GetStats();
        Assert.Equal(0, stats.Open);
        Assert.Equal(0, stats.Waiters);
    }

    [Fact]
    public async Task A_fetch_fails_with_a_timeout_naming_the_provider_and_leaves_its_breaker_closed()
    {
        await using var server = await StartServerAsync(maxConnections: 1);
        await using var foreign = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        var options = new UsenetOptions { Providers = [Provider(server, "crowded", TimeSpan.FromMilliseconds(400))], BreakerFailureThreshold = 1, MaxAttemptsPerProvider = 2 };
        await using var client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance),
            new GlobalOperationLimiter(LimiterOptions.CreateDefault(options.Providers)), TimeProvider.System, NullLogger<UsenetClient>.Instance);
        var article = server.Store.Files[0].Articles[0];

        var error = await Assert.ThrowsAsync<NoProviderAvailableException>(
            () => client.BodyAsync(article.MessageId, () => new RecordingTarget(), OperationKind.Streaming, Token));

        // The engine first asks without waiting (refused at once), then waits its turn: both name the provider.
        var failure = error.Failures[^1];
        Assert.All(error.Failures, f => Assert.Equal("crowded", f.ProviderName));
        Assert.Contains("Provider 'crowded' refused new connections as full", error.Message);
        Assert.IsType<ConnectionPoolTimeoutException>(failure.Error);
        Assert.Equal(CircuitState.Closed, client.GetProviderStatus().Single().Circuit);
    }

    [Fact]
    public async Task Renting_without_waiting_does_not_wait_for_a_full_provider()
    {
        await using var server = await StartServerAsync(maxConnections: 1);
        await using var foreign = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        var factory = new CountingConnectionFactory(new NntpConnectionFactory(NullLoggerFactory.Instance));
        await using var pool = new ProviderConnectionPool(Provider(server, "crowded", TimeSpan.FromMinutes(5)), factory, TimeProvider.System, NullLogger.Instance);

        Assert.True(pool.TryRentWithoutWaiting(Token, out var pending));
        var error = await Assert.ThrowsAsync<ConnectionPoolTimeoutException>(() => pending.AsTask());

        Assert.True(error.ProviderRefused);
        Assert.Equal(1, factory.AttemptsOn("crowded"));
        Assert.Equal(0, pool.GetStats().Open);
    }

    [Fact]
    public async Task A_refused_login_still_fails_at_once()
    {
        await using var server = new MockNntpServer(new MockNntpOptions { MaxConnections = 2, User = "user", Password = "right" });
        server.Store.AddGeneratedFile("auth.bin", 2L * SegmentSize, SegmentSize);
        await server.StartAsync(Token);
        var factory = new CountingConnectionFactory(new NntpConnectionFactory(NullLoggerFactory.Instance));
        var provider = Provider(server, "locked", TimeSpan.FromMinutes(5)) with { User = "user", Password = "wrong" };
        await using var pool = new ProviderConnectionPool(provider, factory, TimeProvider.System, NullLogger.Instance);

        var error = await Assert.ThrowsAsync<NntpAuthenticationException>(() => pool.RentAsync(Token).AsTask());

        Assert.Contains("481", error.Message);
        Assert.Equal(1, factory.AttemptsOn("locked"));
        Assert.Equal(0, server.Stats.RejectedConnections);
        Assert.Equal(0, pool.GetStats().Open);
    }

    private static async Task<MockNntpServer> StartServerAsync(int maxConnections)
    {
        var server = new MockNntpServer(new MockNntpOptions { MaxConnections = maxConnections, Seed = 5 });
        server.Store.AddGeneratedFile("full.bin", (4L * SegmentSize) + 99, SegmentSize);
        await server.StartAsync(Token);
        return server;
    }

    private static UsenetProviderOptions Provider(MockNntpServer server, string name, TimeSpan operationTimeout) => new()
    {
        Name = name,
        Host = "127.0.0.1",
        Port = server.Port,
        UseTls = false,
        MaxConnections = server.Options.MaxConnections!.Value,
        OperationTimeout = operationTimeout,
    };
}
