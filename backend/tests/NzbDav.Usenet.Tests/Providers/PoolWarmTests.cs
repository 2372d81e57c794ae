using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using static NzbDav.Testing.Waiting;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;
using static NzbDav.Usenet.Tests.Providers.RealSocketKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>Opening sessions ahead of demand, over real loopback sockets.</summary>
public sealed class PoolWarmTests
{
    [Fact]
    public async Task Warm_opens_idle_sessions_up_to_the_target_and_never_past_the_cap()
    {
        await using var server = await StartServerAsync(maxConnections: 6, latency: TimeSpan.FromMilliseconds(5));
        await using var pool = NewPool(Real("warm", server, maxConnections: 6));

        Assert.Equal(4, pool.Warm(4));
        await WaitUntilAsync(() => pool.GetStats().Idle == 4, Token);
        Assert.Equal(0, pool.Warm(3)); // four open already
        Assert.Equal(2, pool.Warm(100)); // only two more fit under the cap
        await WaitUntilAsync(() => pool.GetStats().Idle == 6, Token);
        Assert.Equal(6, server.Stats.TotalConnections);

        // Every rent is served by a warmed session: nothing more connects.
        var leases = new List<ConnectionLease>();
        for (var i = 0; i < 6; i++)
        {
            leases.Add(await pool.RentAsync(Token));
        }
        foreach (var lease in leases)
        {
            Assert.True(await lease.Connection.StatAsync(server.Store.Files[0].Articles[0].MessageId, Token));
            await lease.DisposeAsync();
        }

        Assert.Equal(6, server.Stats.TotalConnections);
        Assert.InRange(server.Stats.PeakConnections, 1, 6);
        Assert.Equal(0, server.Stats.RejectedConnections);
        Assert.Equal(6, pool.GetStats().PeakOpen);
    }

    [Fact]
    public async Task A_session_being_warmed_goes_to_the_caller_waiting_for_it()
    {
        // The greeting takes 100 ms, so the renters queue behind the two slots the warm-up reserved.
        await using var server = await StartServerAsync(maxConnections: 2, latency: TimeSpan.FromMilliseconds(100));
        await using var pool = NewPool(Real("handoff", server, maxConnections: 2));

        Assert.Equal(2, pool.Warm(2));
        var renters = Enumerable.Range(0, 3).Select(_ => Task.Run(async () =>
        {
            await using var lease = await pool.RentAsync(Token);
            Assert.True(await lease.Connection.StatAsync(server.Store.Files[0].Articles[0].MessageId, Token));
        }, Token)).ToArray();
        await Task.WhenAll(renters);

        Assert.Equal(2, server.Stats.TotalConnections);
        Assert.Equal(0, server.Stats.RejectedConnections);
        var stats = pool.GetStats();
        Assert.Equal(0, stats.InUse);
        Assert.Equal(2, stats.Idle);
    }

    [Fact]
    public async Task A_failed_warm_up_gives_its_slots_back()
    {
        var provider = new UsenetProviderOptions { Name = "nowhere", Host = "127.0.0.1", Port = ClosedPort(), UseTls = false, MaxConnections = 3 };
        await using var pool = NewPool(provider);

        Assert.Equal(3, pool.Warm(3));
        await WaitUntilAsync(() => pool.GetStats().Open == 0, Token);
        Assert.Equal(0, pool.GetStats().Idle);
    }

    [Fact]
    public async Task A_disposed_pool_warms_nothing()
    {
        await using var server = await StartServerAsync(maxConnections: 2, latency: TimeSpan.Zero);
        var pool = NewPool(Real("gone", server, maxConnections: 2));
        await pool.DisposeAsync();

        Assert.Equal(0, pool.Warm(2));
        Assert.Equal(0, server.Stats.TotalConnections);
    }

    private static ProviderConnectionPool NewPool(UsenetProviderOptions provider) =>
        new(provider, new NntpConnectionFactory(NullLoggerFactory.Instance), TimeProvider.System, NullLogger.Instance);
}
