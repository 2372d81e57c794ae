using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Cluster;
using NzbDav.Server.Health;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>Health sweeps shared out among the nodes, and repairs run once in the cluster.</summary>
public sealed class ClusterHealthTests
{
    [Fact]
    public async Task A_sweep_is_shared_between_the_nodes_and_checks_every_file_exactly_once()
    {
        var ct = TestContext.Current.CancellationToken;
        var output = TestContext.Current.TestOutputHelper;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        await using var nntp = new MockNntpServer(new MockNntpOptions { MessageIdToken = "sweep" });
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(20);
        await nntp.StartAsync(ct);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        // One file at a time per node: a batch is 8 files, so 24 due files are more than one node takes at once.
        string[] Node(string name) => [.. database.HostArguments(), "--Cluster:NodeName=" + name, "--Health:ConcurrentFiles=1", "--Health:ImportCheck=false"];
        await using var a = await IngestionHost.StartAsync(dataA.Path, nntp.Port, ct, null, Node("a"));
        await using var b = await IngestionHost.StartAsync(dataB.Path, nntp.Port, ct, null, Node("b"));
        const int Files = 24, Segments = 3;
        for (var i = 1; i <= Files; i++)
        {
            var content = new byte[Segments * 10_000];
            new Random(i).NextBytes(content);
            var file = nntp.Store.AddFile($"Sweep.Show.S01E{i:D2}.mkv", content, 10_000);
            using var nzb = new MemoryStream();
            MockNzbWriter.Write(nzb, [file], $"Sweep.Show.S01E{i:D2}", nntp.StartedAt);
            Assert.Equal("Completed", (await a.AddAndWaitAsync(nzb.ToArray(), $"Sweep.Show.S01E{i:D2}.nzb", ct)).GetProperty("status").GetString());
        }

        var services = new[] { a, b }.Select(n => n.Server.Services.GetRequiredService<HealthCheckService>()).ToArray();
        var checksBefore = services.Select(s => s.ChecksDone).ToArray();
        var statsBefore = nntp.Stats.GetCommandCount(MockCommandKind.Stat);
        var factory = a.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        var sweepAt = DateTime.UtcNow.AddSeconds(-1);
        await using (var context = await factory.CreateDbContextAsync(ct))
            await context.FileHealth.ExecuteUpdateAsync(s => s.SetProperty(h => h.NextCheckAt, sweepAt), ct);
        // The sweep starts on a (as its scheduler would when the files came due); a asks b for help.
        a.Server.Services.GetRequiredService<HealthWake>().Request();

        await Waiting.PollAsync(async token =>
        {
            await using var context = await factory.CreateDbContextAsync(token);
            return await context.FileHealth.CountAsync(h => h.LastCheckedAt > sweepAt, token);
        }, checkedFiles => checkedFiles == Files, "every file checked", TimeSpan.FromSeconds(60), TimeSpan.FromMilliseconds(100), n => $"{n} checked", ct);
        await Waiting.WaitUntilAsync(() => services.Sum(s => s.ChecksDone) - checksBefore.Sum() >= Files, TimeSpan.FromSeconds(10), ct);

        var byNode = services.Select((s, i) => s.ChecksDone - checksBefore[i]).ToArray();
        var stats = nntp.Stats.GetCommandCount(MockCommandKind.Stat) - statsBefore;
        output?.WriteLine($"checks: a {byNode[0]}, b {byNode[1]}; STATs {stats} for {Files} files of {Segments} segments");
        Assert.Equal(Files, byNode.Sum());
        Assert.All(byNode, n => Assert.True(n > 0, "a node took no share of the sweep"));
        Assert.Equal(Files * Segments, stats);
    }

    [Fact]
    public async Task A_cluster_lock_is_held_by_one_node_at_a_time_and_let_go_with_its_session()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var store = LibraryStore.Resolve("/nonexistent", new DatabaseOptions { Provider = "postgres", ConnectionString = database.ConnectionString });
        var nodeA = new ClusterLocks(store);
        var nodeB = new ClusterLocks(store);
        var item = Guid.NewGuid();

        var held = await nodeA.TryAcquireAsync("repair", item, ct);
        Assert.NotNull(held);
        Assert.Null(await nodeB.TryAcquireAsync("repair", item, ct));
        Assert.Null(await nodeA.TryAcquireAsync("repair", item, ct));
        // Another file, or another kind of work on the same one, is not held.
        await using (var other = await nodeB.TryAcquireAsync("repair", Guid.NewGuid(), ct))
            Assert.NotNull(other);
        await using (var par2 = await nodeB.TryAcquireAsync("par2", item, ct))
            Assert.NotNull(par2);

        await held!.DisposeAsync();
        await using var taken = await nodeB.TryAcquireAsync("repair", item, ct);
        Assert.NotNull(taken);
    }
}
