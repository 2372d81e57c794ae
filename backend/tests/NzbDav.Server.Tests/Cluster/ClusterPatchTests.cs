using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Server.Health.Par2;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>What a PAR2 repair rebuilt on one node is served by every node (the library keeps the bytes).</summary>
public sealed class ClusterPatchTests(MockProviderFixture provider)
{
    [Fact]
    public async Task Patches_stored_on_one_node_are_served_by_the_other_and_forgotten_by_both_with_their_job()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var database = await PostgresDatabase.CreateAsync(ct);
        var content = new byte[300_000];
        new Random(3403).NextBytes(content);
        var file = provider.Store.AddFile("Patched.Show.S01E01.mkv", content, 100_000);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        await using var a = await IngestionHost.StartAsync(dataA.Path, provider.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=a"]);
        await using var b = await IngestionHost.StartAsync(dataB.Path, provider.Port, ct, null, [.. database.HostArguments(), "--Cluster:NodeName=b"]);
        await a.AddAndWaitAsync(provider.Nzb("Patched.Show.S01E01", file), "Patched.Show.S01E01.nzb", ct);
        var factory = a.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
        Guid jobId;
        await using (var context = await factory.CreateDbContextAsync(ct))
            jobId = await context.Jobs.Where(j => j.Name == "Patched.Show.S01E01").Select(j => j.Id).SingleAsync(ct);

        // Two rebuilt segments stored by a's repair.
        var first = new byte[100_000];
        var second = new byte[100_000];
        new Random(1).NextBytes(first);
        new Random(2).NextBytes(second);
        var storeA = a.Server.Services.GetRequiredService<SegmentPatchStore>();
        var storeB = b.Server.Services.GetRequiredService<SegmentPatchStore>();
        await storeA.SaveAsync(jobId, [RebuiltSegment.Of("one@patched", first), RebuiltSegment.Of("two@patched", second)], ct);

        // b is told, writes its own copy from the library and serves it, checked by CRC.
        await Waiting.WaitUntilAsync(() => storeB.ForJob(jobId)?.Count == 2, TimeSpan.FromSeconds(10), ct);
        var read = new byte[100_000];
        Assert.True(storeB.TryRead("two@patched", read));
        Assert.Equal(second, read);
        Assert.True(storeB.TryRead("one@patched", read));
        Assert.Equal(first, read);
        var copy = Assert.Single(Directory.GetFiles(Path.Combine(dataB.Path, "patches", jobId.ToString("N"))));
        Assert.Equal(200_000, new FileInfo(copy).Length);
        Assert.Equal(0, storeB.CorruptReads);

        // The job deleted on a: b forgets its patches and deletes its copy.
        await using (var context = await factory.CreateDbContextAsync(ct))
            await context.SegmentPatches.Where(p => p.JobId == jobId).ExecuteDeleteAsync(ct);
        storeA.ForgetJobs([jobId]);
        await Waiting.WaitUntilAsync(() => storeB.ForJob(jobId) is null, TimeSpan.FromSeconds(10), ct);
        Assert.False(File.Exists(copy));
        Assert.False(storeB.TryRead("one@patched", read));
    }
}
