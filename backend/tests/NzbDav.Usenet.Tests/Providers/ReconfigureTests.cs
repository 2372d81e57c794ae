using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using static NzbDav.Testing.Waiting;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>Providers and caps changed while leases are held and callers wait (fake sessions).</summary>
public sealed class ReconfigureTests
{
    [Fact]
    public async Task Raising_a_cap_hands_each_new_slot_to_exactly_one_waiter()
    {
        await using var kit = new Kit(Provider("alpha", max: 1));
        var held = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        var waiters = Enumerable.Range(0, 3).Select(_ => kit.Client.AcquireAsync(OperationKind.Streaming, Token).AsTask()).ToList();
        await WaitUntilAsync(() => kit.Waiting("alpha") == 3, Token);

        kit.Client.Reconfigure(Options(Provider("alpha", max: 3)));

        // Two new slots: the first two waiters in line get them; the third still waits its turn.
        var first = await waiters[0].WaitAsync(TimeSpan.FromSeconds(10), Token);
        var second = await waiters[1].WaitAsync(TimeSpan.FromSeconds(10), Token);
        Assert.Equal(1, kit.Waiting("alpha"));
        Assert.False(waiters[2].IsCompleted);
        Assert.Equal(3, kit.Limiter.Options.TotalConnections); // the budget follows the primaries
        await held.DisposeAsync();
        var third = await waiters[2].WaitAsync(TimeSpan.FromSeconds(10), Token);
        Assert.Equal(3, kit.Factory["alpha"].PeakOpen);
        foreach (var lease in new[] { first, second, third })
        {
            await lease.DisposeAsync();
        }
    }

    [Fact]
    public async Task Lowering_a_cap_never_lets_the_provider_see_more_sessions_than_the_new_one()
    {
        await using var kit = new Kit(Provider("alpha", max: 3));
        var leases = new List<UsenetLease>();
        for (var i = 0; i < 3; i++)
        {
            leases.Add(await kit.Client.AcquireAsync(OperationKind.Streaming, Token));
        }

        kit.Client.Reconfigure(Options(Provider("alpha", max: 1)));
        var waiting = kit.Client.AcquireAsync(OperationKind.Streaming, Token).AsTask();
        await WaitUntilAsync(() => kit.Waiting("alpha") == 1, Token);

        // Returned sessions beyond the new cap close instead of going to the waiter.
        await leases[0].DisposeAsync();
        await leases[1].DisposeAsync();
        await WaitUntilAsync(() => kit.Factory["alpha"].OpenNow == 1, Token);
        Assert.Equal(1, kit.Waiting("alpha"));

        // The last one is within the cap: it is handed to the waiter as it is, no new connect.
        await leases[2].DisposeAsync();
        await using var next = await waiting.WaitAsync(TimeSpan.FromSeconds(10), Token);
        Assert.Equal(3, kit.Factory["alpha"].ConnectAttempts);
        Assert.Equal(1, kit.Factory["alpha"].OpenNow);
        Assert.Equal(1, kit.Limiter.Options.TotalConnections);
    }

    [Fact]
    public async Task A_removed_provider_takes_no_new_work_and_its_sessions_close_as_they_come_back()
    {
        await using var kit = new Kit(Provider("alpha", max: 2, priority: 0), Provider("beta", max: 2, priority: 1));
        var onAlpha = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        Assert.Equal("alpha", onAlpha.ProviderName);
        Assert.False(onAlpha.IsRetired);

        kit.Client.Reconfigure(Options(Provider("beta", max: 2, priority: 1)));

        Assert.True(onAlpha.IsRetired);
        Assert.Equal(["beta"], kit.Client.ProviderNames);
        await using (var next = await kit.Client.AcquireAsync(OperationKind.Streaming, Token))
        {
            Assert.Equal("beta", next.ProviderName);
        }

        Assert.Equal(1, kit.Factory["alpha"].OpenNow); // still lent: closes when it comes back
        await onAlpha.DisposeAsync();
        await WaitUntilAsync(() => kit.Factory["alpha"].OpenNow == 0, Token);
    }

    [Fact]
    public async Task A_caller_waiting_on_a_removed_provider_asks_the_next_one()
    {
        // A budget above the pools' caps, so the third caller waits in a pool rather than at the limiter.
        await using var kit = new Kit(new LimiterOptions { TotalConnections = 10 }, Provider("alpha", max: 1, priority: 0), Provider("beta", max: 1, priority: 1));
        var onAlpha = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        var onBeta = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        Assert.Equal("beta", onBeta.ProviderName);
        var waiting = kit.Client.AcquireAsync(OperationKind.Streaming, Token).AsTask();
        await WaitUntilAsync(() => kit.Pool("alpha").Waiters == 1, Token); // it waits on the first primary

        kit.Client.Reconfigure(Options(Provider("beta", max: 1, priority: 1)));
        await WaitUntilAsync(() => kit.Pool("beta").Waiters == 1, Token); // told to ask elsewhere, it queues at beta

        await onBeta.DisposeAsync();
        await using var lease = await waiting.WaitAsync(TimeSpan.FromSeconds(10), Token);
        Assert.Equal("beta", lease.ProviderName);
        await onAlpha.DisposeAsync();
    }

    [Fact]
    public async Task A_new_server_or_account_under_the_same_name_gets_a_fresh_pool()
    {
        await using var kit = new Kit(Provider("alpha", max: 2));
        var old = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);

        kit.Client.Reconfigure(Options(Provider("alpha", max: 2) with { Host = "other.invalid" }));

        Assert.True(old.IsRetired);
        Assert.Equal(0, kit.Pool("alpha").Open); // the new pool has nothing yet
        await using (var fresh = await kit.Client.AcquireAsync(OperationKind.Streaming, Token))
        {
            Assert.False(fresh.IsRetired);
            Assert.Equal(2, kit.Factory["alpha"].OpenNow); // the old session is still lent
        }

        await old.DisposeAsync();
        await WaitUntilAsync(() => kit.Factory["alpha"].OpenNow == 1, Token); // the old one closed; the new one idles
    }

    [Fact]
    public async Task A_disabled_provider_is_not_used_and_comes_back_when_enabled()
    {
        await using var kit = new Kit(Provider("alpha", max: 1, priority: 0), Provider("beta", max: 1, priority: 1));

        kit.Client.Reconfigure(Options(Provider("alpha", max: 1, priority: 0) with { Enabled = false }, Provider("beta", max: 1, priority: 1)));
        await using (var lease = await kit.Client.AcquireAsync(OperationKind.Streaming, Token))
        {
            Assert.Equal("beta", lease.ProviderName);
        }

        kit.Client.Reconfigure(Options(Provider("alpha", max: 1, priority: 0), Provider("beta", max: 1, priority: 1)));
        await using var back = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        Assert.Equal("alpha", back.ProviderName);
    }

    [Fact]
    public async Task An_invalid_change_is_refused_and_changes_nothing()
    {
        await using var kit = new Kit(Provider("alpha", max: 2));

        var error = Assert.Throws<ArgumentException>(() => kit.Client.Reconfigure(Options(Provider("alpha", max: 2), Provider("ALPHA", max: 1))));

        Assert.Contains("used twice", error.Message);
        Assert.Equal(["alpha"], kit.Client.ProviderNames);
        Assert.Equal(2, kit.Pool("alpha").MaxConnections);
    }

    [Fact]
    public async Task Providers_can_be_added_to_a_client_that_started_with_none()
    {
        await using var kit = new Kit();
        await Assert.ThrowsAsync<NoProviderAvailableException>(() => kit.Client.AcquireAsync(OperationKind.Streaming, Token).AsTask());

        kit.Client.Reconfigure(Options(Provider("alpha", max: 4)));

        await using var lease = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        Assert.Equal("alpha", lease.ProviderName);
        Assert.Equal(4, kit.Limiter.Options.TotalConnections);
    }

    private static UsenetOptions Options(params UsenetProviderOptions[] providers) => new() { Providers = providers };

    /// <summary>A client over fake providers with a limiter derived from them, as the server registers it.</summary>
    private sealed class Kit : IAsyncDisposable
    {
        public Kit(params UsenetProviderOptions[] providers)
            : this(null, providers)
        {
        }

        public Kit(LimiterOptions? limits, params UsenetProviderOptions[] providers)
        {
            Limiter = new GlobalOperationLimiter(limits ?? LimiterOptions.CreateDefault(Math.Max(1, LimiterOptions.BudgetOf(providers))));
            Client = new UsenetClient(Options(providers), Factory, Limiter, new FakeTimeProvider(), NullLogger<UsenetClient>.Instance);
        }

        public FakeConnectionFactory Factory { get; } = new();

        public GlobalOperationLimiter Limiter { get; }

        public UsenetClient Client { get; }

        public ConnectionPoolStats Pool(string name) => Client.GetProviderStatus().Single(s => s.Name == name).Pool;

        /// <summary>Callers waiting for a permit or for one of the provider's sessions.</summary>
        public int Waiting(string name) => Limiter.GetStats().StreamingWaiting + Pool(name).Waiters;

        public ValueTask DisposeAsync() => Client.DisposeAsync();
    }
}
