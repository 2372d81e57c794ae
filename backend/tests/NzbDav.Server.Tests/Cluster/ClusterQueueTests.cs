using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.MockNntp;
using NzbDav.MockNntp.Nzb;
using NzbDav.Server.Cluster;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>Two nodes, each a real host with its own data directory, on one library in PostgreSQL.</summary>
public sealed class ClusterQueueTests
{
    [Fact]
    public async Task Two_nodes_ingest_each_job_exactly_once_and_a_node_that_stops_mid_job_leaves_it_to_the_other()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        // Slow enough that a job takes a while: the node that did not accept the jobs is told of them
        // (LISTEN/NOTIFY) and takes its share.
        await using var nntp = new MockNntpServer(new MockNntpOptions { MessageIdToken = "cluster" });
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(150);
        await nntp.StartAsync(ct);
        var nzbs = Enumerable.Range(1, 8).Select(i =>
        {
            var content = new byte[120_000];
            new Random(i).NextBytes(content);
            var file = nntp.Store.AddFile($"Cluster.Show.S01E{i:D2}.mkv", content, 40_000);
            using var nzb = new MemoryStream();
            MockNzbWriter.Write(nzb, [file], $"Cluster.Show.S01E{i:D2}", nntp.StartedAt);
            return nzb.ToArray();
        }).ToList();
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        var a = await IngestionHost.StartAsync(dataA.Path, nntp.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=a"]);
        await using var stopA = a;
        await using var b = await IngestionHost.StartAsync(dataB.Path, nntp.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=b"]);
        var nodeA = a.Server.Services.GetRequiredService<ClusterNode>().Id;
        var nodeB = b.Server.Services.GetRequiredService<ClusterNode>().Id;

        var ids = new List<string>();
        for (var i = 0; i < nzbs.Count; i++)
            ids.Add((await a.Server.AddFileAsync(nzbs[i], "name", $"Cluster.Show.S01E{i + 1:D2}.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!);
        foreach (var id in ids)
            Assert.Equal("Completed", (await b.Server.WaitForHistoryAsync(id, mustStayQueued: true, ct)).GetProperty("status").GetString());

        var factory = b.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        await using (var context = await factory.CreateDbContextAsync(ct))
        {
            var jobs = await context.Jobs.AsNoTracking().ToListAsync(ct);
            Assert.Equal(8, jobs.Count);
            // Both nodes took jobs, and each job has one folder with its one file: nothing ingested twice.
            Assert.Equal(new[] { nodeA, nodeB }.Order(), jobs.Select(j => j.ClaimedBy!.Value).Distinct().Order());
            var items = await context.DavItems.AsNoTracking().ToListAsync(ct);
            Assert.All(jobs, job => Assert.Equal(2, items.Count(d => d.JobId == job.Id)));
            Assert.DoesNotContain(items, d => d.Name.EndsWith(')'));
            Assert.Equal(["a", "b"], await context.Nodes.Select(n => n.Name).OrderBy(n => n).ToListAsync(ct));
        }

        // A job a node holds when it stops goes to the other at once: the stopping node removes itself.
        nntp.Behavior.Latency = TimeSpan.FromSeconds(1);
        var late = (await a.Server.AddFileAsync(nzbs[0], "name", "Cluster.Late.nzb", "tv", ct)).GetProperty("nzo_ids")[0].GetString()!;
        var held = await Waiting.PollAsync(async token =>
        {
            await using var context = await factory.CreateDbContextAsync(token);
            return await context.Jobs.AsNoTracking().SingleAsync(j => j.NzoId == late, token);
        }, j => j.Status == JobStatus.Processing, "the late job claimed", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(20), j => j.Status.ToString(), ct);
        var (stopping, staying, stayingId) = held.ClaimedBy == nodeA ? (a, b, nodeB) : (b, a, nodeA);
        await stopping.DisposeAsync();
        nntp.Behavior.Latency = TimeSpan.FromMilliseconds(20);

        Assert.Equal("Completed", (await staying.Server.WaitForHistoryAsync(late, mustStayQueued: true, ct)).GetProperty("status").GetString());
        await using (var context = await staying.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
        {
            var job = await context.Jobs.AsNoTracking().SingleAsync(j => j.NzoId == late, ct);
            Assert.Equal(stayingId, job.ClaimedBy);
            Assert.Equal(2, await context.DavItems.CountAsync(d => d.JobId == job.Id, ct));
            Assert.Equal(stayingId, (await context.Nodes.SingleAsync(ct)).Id);
        }
    }

    [Fact]
    public async Task A_running_node_stops_when_a_newer_version_migrates_the_library_under_it()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        using var data = new TempDirectory();
        await using var host = await Api.TestServer.StartAsync(data.Path, null, holdQueue: false, ct, [.. database.HostArguments(), "--Cluster:HeartbeatInterval=00:00:00.2", "--Cluster:NodeTimeout=00:00:01"]);
        var stopping = host.Services.GetRequiredService<Microsoft.Extensions.Hosting.IHostApplicationLifetime>().ApplicationStopping;
        Assert.False(stopping.IsCancellationRequested);

        await using (var connection = new Npgsql.NpgsqlConnection(database.ConnectionString))
        {
            await connection.OpenAsync(ct);
            await using var future = new Npgsql.NpgsqlCommand("""INSERT INTO "__EFMigrationsHistory" ("MigrationId", "ProductVersion") VALUES ('29990101000000_FromTheFuture', '99.0.0')""", connection);
            await future.ExecuteNonQueryAsync(ct);
        }

        await Waiting.WaitUntilAsync(() => stopping.IsCancellationRequested, TimeSpan.FromSeconds(30), ct, "the node stopping itself");
    }
}
