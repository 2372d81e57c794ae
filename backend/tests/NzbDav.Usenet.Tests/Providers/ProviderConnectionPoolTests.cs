using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class ProviderConnectionPoolTests
{
    private readonly FakeConnectionFactory _factory = new();
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public async Task Connects_lazily_and_reuses_a_returned_session()
    {
        await using var pool = Pool(_factory, _time);
        Assert.Equal(0, _factory["alpha"].ConnectAttempts);
        Assert.Equal(0, pool.GetStats().Open);

        var first = await pool.RentAsync(Token);
        var connection = first.Connection;
        await first.DisposeAsync();
        await first.DisposeAsync(); // idempotent
        var second = await pool.RentAsync(Token);

        Assert.Same(connection, second.Connection);
        Assert.Equal(1, _factory["alpha"].ConnectAttempts);
        Assert.Equal(new ConnectionPoolStats("alpha", 3, Open: 1, Idle: 0, InUse: 1, Waiters: 0, PeakOpen: 1), pool.GetStats());
    }

    [Fact]
    public async Task Never_opens_more_than_MaxConnections_counting_sessions_being_opened()
    {
        await using var pool = Pool(_factory, _time, max: 3);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _factory["alpha"].Gate = gate; // connects hang until released
        var rents = Enumerable.Range(0, 10).Select(_ => pool.RentAsync(Token).AsTask()).ToList();

        var stats = pool.GetStats();
        Assert.Equal(3, stats.Open);
        Assert.Equal(3, stats.Connecting);
        Assert.Equal(7, stats.Waiters);
        Assert.Equal(3, _factory["alpha"].ConnectAttempts);

        _factory["alpha"].Gate = null;
        gate.SetResult();
        var leases = new List<ConnectionLease>();
        foreach (var rent in rents.Take(3))
        {
            leases.Add(await rent);
        }

        for (var i = 3; i < rents.Count; i++)
        {
            await leases[i - 3].DisposeAsync();
            leases.Add(await rents[i]);
        }

        Assert.Equal(3, _factory["alpha"].PeakOpen);
        Assert.Equal(3, pool.GetStats().PeakOpen);
        Assert.Equal(3, _factory["alpha"].ConnectAttempts);
    }

    [Fact]
    public async Task Waiters_are_served_first_come_first_served_one_per_return()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var held = await pool.RentAsync(Token);
        var waiters = Enumerable.Range(0, 5).Select(_ => pool.RentAsync(Token).AsTask()).ToList();
        Assert.Equal(5, pool.GetStats().Waiters);

        for (var i = 0; i < waiters.Count; i++)
        {
            var connection = held.Connection;
            await held.DisposeAsync();
            Assert.Equal(waiters.Count - i - 1, pool.GetStats().Waiters); // exactly one woken
            held = await waiters[i];
            Assert.Same(connection, held.Connection);
            Assert.All(waiters.Skip(i + 1), w => Assert.False(w.IsCompleted));
        }

        await held.DisposeAsync();
        Assert.Equal(1, _factory["alpha"].ConnectAttempts);
    }

    [Fact]
    public async Task Idle_sessions_are_lent_in_fifo_order()
    {
        await using var pool = Pool(_factory, _time, max: 3);
        var leases = new[] { await pool.RentAsync(Token), await pool.RentAsync(Token), await pool.RentAsync(Token) };
        var returnOrder = new[] { leases[2], leases[0], leases[1] };
        foreach (var lease in returnOrder)
        {
            await lease.DisposeAsync();
        }

        foreach (var expected in returnOrder)
        {
            var lease = await pool.RentAsync(Token);
            Assert.Same(expected.Connection, lease.Connection);
        }
    }

    [Fact]
    public async Task Try_rent_without_waiting_never_queues()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        Assert.True(pool.TryRentWithoutWaiting(Token, out var pending));
        var lease = await pending;
        Assert.False(pool.TryRentWithoutWaiting(Token, out _));
        Assert.Equal(0, pool.GetStats().Waiters);
        await lease.DisposeAsync();
        Assert.True(pool.TryRentWithoutWaiting(Token, out pending));
        Assert.Same(lease.Connection, (await pending).Connection);
    }

    [Fact]
    public async Task A_hundred_concurrent_requesters_share_ten_sessions()
    {
        await using var pool = new ProviderConnectionPool(Provider(max: 10), _factory, TimeProvider.System, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance);
        var served = 0;

        async Task Requester()
        {
            for (var i = 0; i < 20; i++)
            {
                await using var lease = await pool.RentAsync(Token);
                Assert.True(lease.Connection.IsUsable);
                await Task.Yield();
                Interlocked.Increment(ref served);
            }
        }

        await Task.WhenAll(Enumerable.Range(0, 100).Select(_ => Task.Run(Requester, Token)));

        Assert.Equal(2000, served);
        Assert.InRange(_factory["alpha"].PeakOpen, 1, 10);
        var stats = pool.GetStats();
        Assert.InRange(stats.PeakOpen, 1, 10);
        Assert.Equal(0, stats.InUse);
        Assert.Equal(stats.Open, stats.Idle);
    }
}
