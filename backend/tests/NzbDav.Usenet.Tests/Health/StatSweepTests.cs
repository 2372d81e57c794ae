using NzbDav.Usenet.Health;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Tests.Providers;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Usenet.Tests.Health;

/// <summary>STAT sweeps over fake providers "fast", "slow" (primaries) and "backup".</summary>
public sealed class StatSweepTests
{
    [Fact]
    public async Task Missing_only_when_every_provider_backups_included_answered_430()
    {
        await using var kit = new ClientTestKit();
        kit.Post("everywhere@x", "fast", "slow", "backup");
        kit.Post("backup-only@x", "backup");
        kit.Post("slow-only@x", "slow");
        await using var sweep = new StatSweep(kit.Client, OperationKind.HealthCheck);

        var results = await sweep.CheckAsync(["everywhere@x", "backup-only@x", "slow-only@x", "gone@x"], TestContext.Current.CancellationToken);

        Assert.Equal([ArticleAvailability.Present, ArticleAvailability.Present, ArticleAvailability.Present, ArticleAvailability.Missing], results);
    }

    [Fact]
    public async Task A_provider_fault_makes_the_answer_unknown_never_missing()
    {
        await using var kit = new ClientTestKit();
        kit.Post("present@x", "fast");
        await using var sweep = new StatSweep(kit.Client, OperationKind.HealthCheck);
        // The backup cannot be reached: the primaries' 430s do not prove the article is gone.
        kit["backup"].RefuseConnections = true;

        var results = await sweep.CheckAsync(["present@x", "gone@x"], TestContext.Current.CancellationToken);

        Assert.Equal([ArticleAvailability.Present, ArticleAvailability.Unknown], results);
    }

    [Fact]
    public async Task Many_ids_in_a_small_window_are_all_answered_in_order()
    {
        await using var kit = new ClientTestKit();
        var ids = Enumerable.Range(0, 500).Select(i => $"a{i}@x").ToArray();
        for (var i = 0; i < ids.Length; i += 2)
            kit.Post(ids[i], "fast");
        await using var sweep = new StatSweep(kit.Client, OperationKind.HealthCheck, window: 16);

        var results = await sweep.CheckAsync(ids, TestContext.Current.CancellationToken);

        for (var i = 0; i < ids.Length; i++)
            Assert.Equal(i % 2 == 0 ? ArticleAvailability.Present : ArticleAvailability.Missing, results[i]);
        Assert.Equal(0, kit.Limiter.GetStats().InUse);
    }

    [Fact]
    public async Task A_long_run_only_the_backup_has_is_answered_through_leases_that_avoid_the_primaries()
    {
        await using var kit = new ClientTestKit(maxConnections: 4);
        var ids = Enumerable.Range(0, 300).Select(i => $"b{i}@x").ToArray();
        for (var i = 0; i < ids.Length; i++)
            kit.Post(ids[i], i is >= 50 and < 250 ? ["backup"] : ["fast", "slow", "backup"]);
        await using var sweep = new StatSweep(kit.Client, OperationKind.HealthCheck);

        var results = await sweep.CheckAsync(ids, TestContext.Current.CancellationToken).WaitAsync(TimeSpan.FromSeconds(20), TestContext.Current.CancellationToken);

        Assert.All(results, r => Assert.Equal(ArticleAvailability.Present, r));
    }

    [Fact]
    public async Task A_sweep_gives_borrowed_connections_back_when_a_player_waits()
    {
        // 9 connections: streaming is guaranteed 8, health checks 1, and may borrow the rest while idle.
        var limits = new LimiterOptions { TotalConnections = 9, HealthCheckGuarantee = 1 };
        await using var kit = new ClientTestKit(maxConnections: 9, limits: limits);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var ids = Enumerable.Range(0, 2000).Select(i => $"s{i}@x").ToArray();
        foreach (var id in ids)
            kit.Post(id, "fast");
        await using var sweep = new StatSweep(kit.Client, OperationKind.HealthCheck, window: 2000);
        kit["fast"].Gate = gate;
        var running = sweep.CheckAsync(ids, TestContext.Current.CancellationToken);
        await WaitUntilAsync(() => kit.Limiter.GetStats().InUse == 9, TestContext.Current.CancellationToken);

        // A player asks for every connection while the sweep holds them all with full pipelines.
        var players = Enumerable.Range(0, 8).Select(_ => kit.Limiter.AcquireAsync(OperationKind.Streaming, TestContext.Current.CancellationToken).AsTask()).ToArray();
        Assert.True(kit.Client.HasWaiters(OperationKind.Streaming));
        kit["fast"].Gate = null;
        gate.SetResult();
        var permits = await Task.WhenAll(players).WaitAsync(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);

        // The sweep kept its guaranteed share and went on with it.
        Assert.Equal(8, permits.Length);
        var stats = kit.Limiter.GetStats();
        Assert.True(stats.InUse <= 9, $"{stats.InUse} in use");
        var results = await running.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);
        Assert.All(results, r => Assert.Equal(ArticleAvailability.Present, r));
        foreach (var permit in permits)
            permit.Dispose();
    }
}
