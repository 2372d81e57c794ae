using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Tests.RealClients;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Testing;
using NzbDav.Testing.Postgres;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Server.Tests.Mount;

/// <summary>
/// Two nodes on one PostgreSQL library, each with its own managed rclone mount whose directory cache
/// lasts an hour: a job completed or deleted through either node shows in (or leaves) both mounts at
/// once, because the change reaches every node by notification and each refreshes its own mount.
/// </summary>
[SlowTest("two real rclone FUSE mounts on two nodes")]
public sealed class ClusterMountTests(MockProviderFixture provider)
{
    [Fact]
    public async Task A_job_completed_or_deleted_on_one_node_shows_in_and_leaves_every_nodes_mount_at_once()
    {
        var ct = TestContext.Current.CancellationToken;
        if (RcloneMount.Unusable(out _) is { } reason)
            Assert.Skip("FUSE is not usable here: " + reason);
        await using var database = await PostgresDatabase.CreateAsync(ct);
        using var dataA = new TempDirectory();
        using var dataB = new TempDirectory();
        var mountA = Path.Combine(dataA.Path, "mnt");
        var mountB = Path.Combine(dataB.Path, "mnt");
        var content = new byte[300_001];
        new Random(34).NextBytes(content);
        const string Release = "Clustered.Show.S01E01";
        var nzb = provider.Nzb(Release, provider.Store.AddFile(Release + ".mkv", content, 100_000));
        string[] Node(string name, string mount) =>
            [.. database.HostArguments(), "--Cluster:NodeName=" + name, "--Mount:Enabled=true", "--NzbDav:MountPath=" + mount, "--Mount:DirCacheTime=1h"];
        await using var a = await IngestionHost.StartAsync(dataA.Path, provider.Port, ct, null, Node("a", mountA));
        await using var b = await IngestionHost.StartAsync(dataB.Path, provider.Port, ct, null, Node("b", mountB));
        await MountHealth.WaitMountedAsync(a.Server, ct);
        await MountHealth.WaitMountedAsync(b.Server, ct);
        // Both mounts now trust their (empty) listing of content/tv for an hour.
        foreach (var mount in new[] { mountA, mountB })
            Assert.Empty(Directory.EnumerateFileSystemEntries(Path.Combine(mount, "content", "tv")));

        var slot = await a.AddAndWaitAsync(nzb, Release + ".nzb", ct);
        var completed = Stopwatch.GetTimestamp();
        var files = new[] { mountA, mountB }.Select(m => Path.Combine(m, "content", "tv", Release, Release + ".mkv")).ToArray();
        await WaitUntilAsync(() => files.All(File.Exists), TimeSpan.FromSeconds(10), ct);
        var shown = Stopwatch.GetElapsedTime(completed);
        Assert.Equal(content, await File.ReadAllBytesAsync(files[1], ct));

        await b.Server.Services.GetRequiredService<NzbDav.Server.Queue.JobCommands>().DeleteAsync([slot.GetProperty("nzo_id").GetString()!], NzbDav.Server.Queue.JobCommands.HistoryStatuses, ct);
        var deleted = Stopwatch.GetTimestamp();
        await WaitUntilAsync(() => files.All(f => !Directory.Exists(Path.GetDirectoryName(f))), TimeSpan.FromSeconds(10), ct);
        var left = Stopwatch.GetElapsedTime(deleted);
        TestContext.Current.TestOutputHelper?.WriteLine($"in both mounts {shown.TotalMilliseconds:F0} ms after Completed; gone from both {left.TotalMilliseconds:F0} ms after the delete");
        // The kernel keeps a looked-up name for rclone's --attr-timeout (1 s) whatever rclone forgets.
        Assert.True(shown < TimeSpan.FromSeconds(2), $"{shown.TotalMilliseconds:F0} ms");
        Assert.True(left < TimeSpan.FromSeconds(2), $"{left.TotalMilliseconds:F0} ms");
    }
}
