using NzbDav.Server.Cluster;

namespace NzbDav.Server.Tests.Cluster;

public sealed class LeaseAllocationTests
{
    private static readonly Guid A = Guid.Parse("00000000-0000-0000-0000-00000000000a");
    private static readonly Guid B = Guid.Parse("00000000-0000-0000-0000-00000000000b");
    private static readonly Guid C = Guid.Parse("00000000-0000-0000-0000-00000000000c");

    [Fact]
    public void Idle_nodes_share_the_cap_evenly_and_every_session_is_given()
    {
        Assert.Equal([7, 7, 6], LeaseAllocation.Allocate(20, [Idle(A), Idle(B), Idle(C)]));
    }

    [Fact]
    public void Streaming_is_served_before_ingestion_and_health_checks()
    {
        // A streams 10, B ingests 10, C checks 10, all waiting: streaming takes what it asks first.
        var targets = LeaseAllocation.Allocate(20, [new(A, 10, 0, 0, true), new(B, 0, 10, 0, true), new(C, 0, 0, 10, true)]);
        Assert.Equal(10, targets[0]);
        Assert.Equal(9, targets[1]);
        Assert.Equal(1, targets[2]);
        Assert.Equal(20, targets.Sum());
    }

    [Fact]
    public void Equal_streaming_demand_beyond_the_cap_is_shared_max_min_fairly()
    {
        var targets = LeaseAllocation.Allocate(20, [new(A, 30, 0, 0, true), new(B, 4, 0, 0, false), new(C, 30, 0, 0, true)]);
        Assert.Equal([8, 4, 8], targets);
    }

    [Fact]
    public void What_nobody_asked_for_goes_to_the_nodes_with_callers_waiting()
    {
        // A shows 3 held and waiters: its real demand is unknown, so it gets all the idle capacity.
        var targets = LeaseAllocation.Allocate(20, [new(A, 3, 0, 0, true), Idle(B), Idle(C)]);
        Assert.Equal([18, 1, 1], targets);
    }

    [Fact]
    public void With_fewer_sessions_than_nodes_the_busiest_get_one_each()
    {
        Assert.Equal([0, 1, 1], LeaseAllocation.Allocate(2, [Idle(A), new(B, 1, 0, 0, false), new(C, 0, 1, 0, false)]));
        Assert.Equal([0, 0, 0], LeaseAllocation.Allocate(0, [Idle(A), Idle(B), Idle(C)]));
    }

    [Fact]
    public void Every_node_computes_the_same_targets_whatever_the_order_of_the_rows()
    {
        LeaseDemand[] rows = [new(C, 5, 2, 1, true), new(A, 1, 0, 0, false), new(B, 9, 0, 3, true)];
        var forward = LeaseAllocation.Allocate(13, rows);
        var backward = LeaseAllocation.Allocate(13, [.. rows.Reverse()]);
        Assert.Equal(forward, backward.Reverse());
        Assert.Equal(13, forward.Sum());
    }

    private static LeaseDemand Idle(Guid node) => new(node, 0, 0, 0, false);
}
