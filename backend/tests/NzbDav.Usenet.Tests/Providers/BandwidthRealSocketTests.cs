using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using NzbDav.MockNntp;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using static NzbDav.Testing.Waiting;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;
using static NzbDav.Usenet.Tests.Providers.RealSocketKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>A bandwidth cap over a real loopback session, on the client's test clock.</summary>
public sealed class BandwidthRealSocketTests
{
    [Fact]
    public async Task A_capped_session_reads_only_as_the_clock_allows_and_its_silence_is_not_held_against_the_provider()
    {
        await using var server = new MockNntpServer(new MockNntpOptions { Port = 0, Seed = 11 });
        var file = server.Store.AddGeneratedFile("big.bin", 1024 * 1024, 1024 * 1024);
        await server.StartAsync(Token);
        var time = new FakeTimeProvider(DateTimeOffset.UtcNow);
        var options = new UsenetOptions
        {
            Providers = [Real("capped", server, maxConnections: 2)],
            Bandwidth = new BandwidthOptions { MaxBytesPerSecond = BandwidthSchedule.MinimumRate },
        };
        using var bandwidth = new BandwidthLimiter(time, NullLogger<BandwidthLimiter>.Instance);
        await using var client = new UsenetClient(options, new NntpConnectionFactory(NullLoggerFactory.Instance), new GlobalOperationLimiter(options.LimiterOptions()),
            time, NullLogger<UsenetClient>.Instance, bandwidth: bandwidth);

        var target = new RecordingTarget();
        var body = client.BodyAsync(file.Articles[0].MessageId, () => target, OperationKind.Streaming, Token);

        // The burst (a quarter second of the rate, at least four reads) goes, then the session waits its turn.
        await WaitUntilAsync(() => bandwidth.Waiting == 1, Token);
        Assert.False(body.IsCompleted);

        // 64 KiB a second of the test clock: sixteen or so seconds for the article, well past the
        // provider's 20 s operation timeout in all; the watchdog does not count the waits.
        var seconds = 0;
        while (!body.IsCompleted)
        {
            time.Advance(TimeSpan.FromSeconds(1));
            seconds++;
            await WaitUntilAsync(() => body.IsCompleted || bandwidth.Waiting == 1, Token);
            Assert.InRange(seconds, 1, 40);
        }
        time.Advance(TimeSpan.FromSeconds(30));

        await body;
        Assert.Equal(file.ReadExpected(0, (int)file.Size).ToArray(), target.Data);
        Assert.InRange(seconds, 10, 18);
        var status = client.GetProviderStatus().Single();
        Assert.Equal(CircuitState.Closed, status.Circuit);
        Assert.Equal(0, status.Breaker.TotalFailures);
    }
}
