using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using static NzbDav.Usenet.Tests.Providers.PoolTestKit;

namespace NzbDav.Usenet.Tests.Providers;

public sealed class UsenetLeaseTests
{
    [Fact]
    public async Task A_lease_holds_a_permit_and_a_session_until_disposed()
    {
        await using var kit = new ClientTestKit();
        Assert.Equal(6, kit.Limiter.Options.TotalConnections); // primaries only: 3 + 3

        var lease = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        Assert.Equal("fast", lease.ProviderName);
        Assert.Equal(OperationKind.Streaming, lease.Kind);
        Assert.Equal(1, kit.Limiter.GetStats().StreamingInUse);
        Assert.Equal(1, kit.Status("fast").Pool.InUse);

        kit.Post("a@x", "fast");
        var bodies = Enumerable.Range(0, lease.Connection.PipelineDepth)
            .Select(_ => lease.Connection.BodyAsync("a@x", new RecordingTarget(), Token));
        await Task.WhenAll(bodies);

        await lease.DisposeAsync();
        await lease.DisposeAsync();
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
        Assert.Equal((0, 1), (kit.Status("fast").Pool.InUse, kit.Status("fast").Pool.Idle));
    }

    [Fact]
    public async Task Leases_spill_to_the_next_primary_when_the_first_is_full_and_then_wait_for_the_first()
    {
        await using var kit = new ClientTestKit(maxConnections: 1);
        var onFast = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        var onSlow = await kit.Client.AcquireAsync(OperationKind.Streaming, Token);
        Assert.Equal(("fast", "slow"), (onFast.ProviderName, onSlow.ProviderName));

        // The budget (2 primaries x 1) is spent: the next caller waits at the limiter, never on the backup.
        var third = kit.Client.AcquireAsync(OperationKind.Streaming, Token).AsTask();
        Assert.Equal(1, kit.Limiter.GetStats().StreamingWaiting);
        await onFast.DisposeAsync();
        await using var next = await third;
        Assert.Equal("fast", next.ProviderName);
        Assert.Equal(0, kit["backup"].ConnectAttempts);
        await onSlow.DisposeAsync();
    }

    [Fact]
    public async Task Leases_use_backups_only_while_every_primary_is_failing()
    {
        await using var kit = new ClientTestKit(attempts: 1, threshold: 1);
        kit["fast"].RefuseConnections = true;
        kit["slow"].RefuseConnections = true;

        // Both primaries fail to connect and trip (threshold 1); the same call then falls to the backup.
        await using (var lease = await kit.Client.AcquireAsync(OperationKind.Queue, Token))
        {
            Assert.Equal("backup", lease.ProviderName);
            Assert.Equal(CircuitState.Open, kit.Status("fast").Circuit);
            Assert.Equal(CircuitState.Open, kit.Status("slow").Circuit);
        }

        // Once the cooldown is over and the primary answers again, leases go back to it.
        kit["fast"].RefuseConnections = false;
        kit.Time.Advance(TimeSpan.FromSeconds(30));
        await using var back = await kit.Client.AcquireAsync(OperationKind.Queue, Token);
        Assert.Equal("fast", back.ProviderName);
        Assert.Equal(CircuitState.Closed, kit.Status("fast").Circuit);
    }
}
