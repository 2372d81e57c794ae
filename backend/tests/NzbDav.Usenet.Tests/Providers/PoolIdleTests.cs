using Microsoft.Extensions.Time.Testing;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class PoolIdleTests
{
    private readonly FakeConnectionFactory _factory = new();
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public async Task Sessions_idle_longer_than_the_timeout_are_closed_by_the_sweep()
    {
        await using var pool = Pool(_factory, _time, max: 3);
        var a = await pool.RentAsync(Token);
        var b = await pool.RentAsync(Token);
        await a.DisposeAsync();
        _time.Advance(TimeSpan.FromSeconds(40));
        await b.DisposeAsync();

        _time.Advance(TimeSpan.FromSeconds(30)); // a: 70 s idle, b: 30 s
        await pool.PendingSweep;
        Assert.Equal(1, pool.GetStats().Open);
        Assert.True(((FakeConnection)a.Connection).IsDisposed);
        Assert.False(((FakeConnection)b.Connection).IsDisposed);

        _time.Advance(TimeSpan.FromSeconds(60));
        await pool.PendingSweep;
        Assert.Equal(0, pool.GetStats().Open);
        Assert.Equal(0, _factory["alpha"].OpenNow);
    }

    [Fact]
    public async Task An_expired_session_found_on_rent_is_replaced_in_its_own_slot()
    {
        await using var pool = Pool(_factory, _time, max: 1); // sweeps run every 30 s from t=0
        var first = await pool.RentAsync(Token);
        _time.Advance(TimeSpan.FromSeconds(1));
        await first.DisposeAsync();

        // t=61.5: idle 60.5 s, but the last sweep (t=60) saw it idle only 59 s. (A timer fires at
        // the time the clock is moved to, so the sweep's moment is a step of its own.)
        _time.Advance(TimeSpan.FromSeconds(59));
        _time.Advance(TimeSpan.FromSeconds(1.5));
        Assert.Equal(1, pool.GetStats().Idle);
        var fresh = await pool.RentAsync(Token);

        Assert.NotSame(first.Connection, fresh.Connection);
        Assert.True(((FakeConnection)first.Connection).IsDisposed);
        Assert.Equal(2, _factory["alpha"].ConnectAttempts);
        Assert.Equal(1, _factory["alpha"].PeakOpen);
        await fresh.DisposeAsync();
    }
}
