using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>A closing session keeps its slot until its close completes, without holding up its last holder.</summary>
public sealed class PoolClosingTests
{
    private readonly FakeConnectionFactory _factory = new();
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public async Task A_broken_session_closes_in_the_background_and_keeps_its_slot_until_closed()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var held = await pool.RentAsync(Token);
        var broken = (FakeConnection)held.Connection;
        var closeGate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _factory["alpha"].CloseGate = closeGate;
        broken.Break();

        var returning = held.DisposeAsync();

        Assert.True(returning.IsCompleted, "the holder that broke the session is not kept waiting for its close");
        await returning;
        var stats = pool.GetStats();
        Assert.Equal(1, stats.Open);
        Assert.Equal(1, stats.Closing);
        Assert.Equal(0, stats.Connecting);
        var waiter = pool.RentAsync(Token).AsTask();
        Assert.False(waiter.IsCompleted);
        Assert.Equal(1, _factory["alpha"].ConnectAttempts);

        closeGate.SetResult();
        await using var replacement = await waiter;

        Assert.True(broken.IsDisposed);
        Assert.False(broken.CloseWasCut);
        Assert.NotSame(broken, replacement.Connection);
        Assert.Equal(1, _factory["alpha"].PeakOpen);
        Assert.Equal(0, pool.GetStats().Closing);
    }

    [Fact]
    public async Task A_stale_idle_session_is_closed_before_its_slot_reconnects()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var first = await pool.RentAsync(Token);
        var stale = (FakeConnection)first.Connection;
        await first.DisposeAsync();
        stale.Break(); // dies while idle
        var closeGate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _factory["alpha"].CloseGate = closeGate;

        var rent = pool.RentAsync(Token).AsTask();

        Assert.False(rent.IsCompleted);
        Assert.Equal(1, _factory["alpha"].ConnectAttempts);
        closeGate.SetResult();
        await using var fresh = await rent;
        Assert.True(stale.IsDisposed);
        Assert.Equal(2, _factory["alpha"].ConnectAttempts);
        Assert.Equal(1, _factory["alpha"].PeakOpen);
    }

    [Fact]
    public async Task A_connect_its_caller_gave_up_on_keeps_the_slot_and_its_session_goes_to_the_next_waiter()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var connectGate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _factory["alpha"].Gate = connectGate;
        using var giveUp = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var first = pool.RentAsync(giveUp.Token).AsTask();
        var second = pool.RentAsync(Token).AsTask();

        await giveUp.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => first);

        // The provider may already count the half-open socket: its slot is not reused yet.
        Assert.Equal(1, pool.GetStats().Open);
        Assert.False(second.IsCompleted);
        _factory["alpha"].Gate = null;
        connectGate.SetResult();
        await using var lease = await second;
        Assert.True(lease.Connection.IsUsable);
        Assert.Equal(1, _factory["alpha"].ConnectAttempts);
        Assert.Equal(1, _factory["alpha"].PeakOpen);
    }

    [Fact]
    public async Task Disposing_the_pool_cuts_closes_still_waiting_for_the_provider()
    {
        var pool = Pool(_factory, _time, max: 2);
        var broken = await pool.RentAsync(Token);
        var idle = await pool.RentAsync(Token);
        _factory["alpha"].CloseGate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously); // never opens
        ((FakeConnection)broken.Connection).Break();
        await broken.DisposeAsync();
        await idle.DisposeAsync();
        Assert.Equal(1, pool.GetStats().Closing);

        await pool.DisposeAsync();

        foreach (var connection in _factory.Opened)
        {
            Assert.True(connection.IsDisposed);
            Assert.True(connection.CloseWasCut);
        }

        Assert.Equal(new ConnectionPoolStats("alpha", 2, Open: 0, Idle: 0, InUse: 0, Waiters: 0, PeakOpen: 2, Closing: 0), pool.GetStats());
    }

    [Fact]
    public void A_negative_CloseTimeout_is_rejected_naming_the_provider()
    {
        var error = Assert.Throws<ArgumentException>(() => new ProviderConnectionPool(
            Provider() with { CloseTimeout = TimeSpan.FromSeconds(-1) }, _factory, _time, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance));
        Assert.Contains("CloseTimeout of provider 'alpha'", error.Message);
    }
}
