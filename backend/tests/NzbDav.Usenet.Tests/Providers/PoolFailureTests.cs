using Microsoft.Extensions.Time.Testing;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class PoolFailureTests
{
    private readonly FakeConnectionFactory _factory = new();
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public async Task A_broken_session_is_closed_and_its_slot_goes_to_a_waiter_who_reconnects()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var held = await pool.RentAsync(Token);
        var waiter = pool.RentAsync(Token).AsTask();
        var broken = (FakeConnection)held.Connection;
        broken.Break();

        await held.DisposeAsync();
        var replacement = await waiter;

        Assert.True(broken.IsDisposed);
        Assert.NotSame(broken, replacement.Connection);
        Assert.Equal(2, _factory["alpha"].ConnectAttempts);
        Assert.Equal(1, _factory["alpha"].PeakOpen);
        Assert.Equal(1, pool.GetStats().Open);
    }

    [Fact]
    public async Task A_connect_failure_reaches_the_caller_that_triggered_it_and_frees_the_slot()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        _factory.NextConnectError = () => new NntpProtocolException("unexpected greeting");

        await Assert.ThrowsAsync<NntpProtocolException>(() => pool.RentAsync(Token).AsTask());
        Assert.Equal(0, pool.GetStats().Open);

        _factory.NextConnectError = null;
        await using var lease = await pool.RentAsync(Token);
        Assert.True(lease.Connection.IsUsable);
    }

    [Fact]
    public async Task A_full_provider_is_asked_again_with_growing_pauses_until_OperationTimeout()
    {
        var time = new TimerCountingTimeProvider();
        await using var pool = Pool(_factory, time, max: 1);
        _factory.NextConnectError = () => new NntpServiceUnavailableException(502, "too many connections");
        var started = time.GetUtcNow();

        var rent = pool.RentAsync(Token).AsTask();
        while (!rent.IsCompleted)
        {
            // The sweep timer is always there; a second one is the pause before the next attempt.
            if (time.LiveTimers >= 2)
            {
                time.Advance(TimeSpan.FromMilliseconds(250));
            }

            await Task.Yield();
        }

        var error = await Assert.ThrowsAsync<ConnectionPoolTimeoutException>(() => rent);
        Assert.True(error.ProviderRefused);
        Assert.Contains("Provider 'alpha' refused new connections as full for 30 s", error.Message);
        Assert.True(time.GetUtcNow() - started >= Provider().OperationTimeout);
        // Pauses of 50 ms doubling to 1 s (each jittered to half..full): about 35-65 tries in 30 s;
        // without doubling it would be hundreds, without the cap a handful.
        Assert.InRange(_factory["alpha"].ConnectAttempts, 30, 70);
        Assert.Equal(0, pool.GetStats().Open);
    }

    [Fact]
    public async Task A_failed_connect_hands_its_slot_to_the_next_waiter()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _factory["alpha"].Gate = gate;
        _factory["alpha"].RefuseConnections = true;
        var first = pool.RentAsync(Token).AsTask();
        var second = pool.RentAsync(Token).AsTask();
        Assert.Equal(1, pool.GetStats().Waiters);

        _factory["alpha"].Gate = null;
        gate.SetResult();
        await Assert.ThrowsAsync<System.Net.Sockets.SocketException>(() => first);
        await Assert.ThrowsAsync<System.Net.Sockets.SocketException>(() => second); // it got the slot and tried itself
        Assert.Equal(2, _factory["alpha"].ConnectAttempts);
        Assert.Equal(new ConnectionPoolStats("alpha", 1, 0, 0, 0, 0, 1), pool.GetStats());
    }

    [Fact]
    public async Task A_cancelled_waiter_leaves_the_queue_without_losing_the_next_wake_up()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        var held = await pool.RentAsync(Token);
        using var cts = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var cancelled = pool.RentAsync(cts.Token).AsTask();
        var next = pool.RentAsync(Token).AsTask();

        await cts.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        Assert.Equal(1, pool.GetStats().Waiters);

        await held.DisposeAsync();
        var lease = await next;
        Assert.Same(held.Connection, lease.Connection);
    }

    [Fact]
    public async Task Cancellation_racing_a_hand_off_never_loses_a_session()
    {
        await using var pool = Pool(_factory, _time, max: 1);
        for (var i = 0; i < 1000; i++)
        {
            var held = await pool.RentAsync(Token);
            using var cts = CancellationTokenSource.CreateLinkedTokenSource(Token);
            var racer = pool.RentAsync(cts.Token).AsTask();
            var bystander = pool.RentAsync(Token).AsTask();

            using var start = new Barrier(2);
            await Task.WhenAll(
                Task.Run(async () => { start.SignalAndWait(); await held.DisposeAsync(); }, Token),
                Task.Run(() => { start.SignalAndWait(); cts.Cancel(); }, Token));

            try
            {
                await (await racer).DisposeAsync(); // granted before the cancel was seen
            }
            catch (OperationCanceledException)
            {
            }

            await (await bystander).DisposeAsync(); // either way the session reaches the bystander
            var stats = pool.GetStats();
            Assert.Equal((1, 1, 0, 0), (stats.Open, stats.Idle, stats.InUse, stats.Waiters));
        }

        Assert.Equal(1, _factory["alpha"].ConnectAttempts);
    }

    [Fact]
    public async Task Waiting_longer_than_the_operation_timeout_names_the_setting_to_raise()
    {
        await using var pool = Pool(_factory, _time, max: 2);
        var leases = new[] { await pool.RentAsync(Token), await pool.RentAsync(Token) };
        var waiter = pool.RentAsync(Token).AsTask();

        _time.Advance(TimeSpan.FromSeconds(29));
        Assert.False(waiter.IsCompleted);
        _time.Advance(TimeSpan.FromSeconds(1));

        var error = await Assert.ThrowsAsync<ConnectionPoolTimeoutException>(() => waiter);
        Assert.Contains("MaxConnections of provider 'alpha'", error.Message);
        Assert.Equal(0, pool.GetStats().Waiters);
        await leases[0].DisposeAsync();
        Assert.Equal(1, pool.GetStats().Idle); // nobody is waiting any more: the session goes idle
    }

    [Fact]
    public async Task Disposing_fails_waiters_closes_idle_sessions_and_later_returns()
    {
        var pool = Pool(_factory, _time, max: 2);
        var idle = await pool.RentAsync(Token);
        var lent = await pool.RentAsync(Token);
        await idle.DisposeAsync();
        await using var other = await pool.RentAsync(Token);
        var waiter = pool.RentAsync(Token).AsTask();

        await pool.DisposeAsync();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => waiter);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => pool.RentAsync(Token).AsTask());
        await lent.DisposeAsync();
        Assert.True(((FakeConnection)lent.Connection).IsDisposed);
        Assert.Equal(1, pool.GetStats().Open); // `other` is still out; it closes when returned
    }
}
