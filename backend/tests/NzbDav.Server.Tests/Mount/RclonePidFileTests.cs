using System.Diagnostics;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Server.Mount;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.Mount;

/// <summary>
/// The record of the rclone a server runs: after a crash the next start stops that rclone, and only
/// it — a pid the kernel has given to another process since is never signalled.
/// </summary>
public sealed class RclonePidFileTests
{
    [Fact]
    public async Task A_recorded_pid_that_is_now_another_process_is_left_alone_and_the_record_dropped()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var file = RclonePidFile.PathIn(temp.Path);
        var self = Environment.ProcessId;

        // This very process under the recorded pid: the start time matches but it is no rclone mount.
        Assert.Null(RclonePidFile.Write(file, self, Path.Combine(temp.Path, "mnt")));
        Assert.Null(await RclonePidFile.StopOrphanAsync(file, new FakeTimeProvider(), ct));
        Assert.False(File.Exists(file));

        // A record whose start time is not the process's now (the pid was reused).
        await File.WriteAllTextAsync(file, $"{self}\n1\n{Path.Combine(temp.Path, "mnt")}\n", ct);
        Assert.Null(await RclonePidFile.StopOrphanAsync(file, new FakeTimeProvider(), ct));
        Assert.False(File.Exists(file));
        // A torn or foreign record is dropped without signalling anything.
        await File.WriteAllTextAsync(file, "12", ct);
        Assert.Null(await RclonePidFile.StopOrphanAsync(file, new FakeTimeProvider(), ct));
    }

    [Fact]
    public async Task The_rclone_a_killed_server_left_is_stopped()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var mount = Path.Combine(temp.Path, "mnt");
        // Stands in for the orphan: a long-lived process whose command line is an rclone mount of the path.
        using var orphan = Process.Start(new ProcessStartInfo("/bin/sh", ["-c", "trap \"exit 0\" TERM; while :; do sleep 0.1; done", "mount", mount]) { RedirectStandardError = true })!;
        var file = RclonePidFile.PathIn(temp.Path);
        Assert.Null(RclonePidFile.Write(file, orphan.Id, mount));

        // SIGTERM ends it: the clock, which stands still, never has to reach the grace.
        Assert.Equal(orphan.Id, await RclonePidFile.StopOrphanAsync(file, new FakeTimeProvider(), ct));
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(TimeSpan.FromSeconds(10));
        await orphan.WaitForExitAsync(deadline.Token);
        Assert.False(File.Exists(file));
    }

    [Fact]
    public async Task An_orphan_that_ignores_SIGTERM_is_killed_once_the_clock_passes_the_grace()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        var mount = Path.Combine(temp.Path, "mnt");
        // Says so when SIGTERM arrives, and carries on.
        using var orphan = Process.Start(new ProcessStartInfo("/bin/sh", ["-c", "trap 'echo TERM' TERM; echo ready; while :; do sleep 0.1; done", "mount", mount]) { RedirectStandardOutput = true })!;
        Assert.Equal("ready", await orphan.StandardOutput.ReadLineAsync(ct));
        var file = RclonePidFile.PathIn(temp.Path);
        Assert.Null(RclonePidFile.Write(file, orphan.Id, mount));
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);

        var stopping = RclonePidFile.StopOrphanAsync(file, clock, ct);
        // The grace is running once the signal is there (it starts before the signal goes out).
        Assert.Equal("TERM", await orphan.StandardOutput.ReadLineAsync(ct).AsTask().WaitAsync(TimeSpan.FromSeconds(10), ct));
        Assert.False(orphan.HasExited);

        // Past the 3 s grace on the clock, SIGKILL follows at the next look, well before the grace
        // could pass in real time: a grace measured on the system clock fails here.
        clock.Advance(TimeSpan.FromSeconds(3.5));
        Assert.Equal(orphan.Id, await stopping.WaitAsync(TimeSpan.FromSeconds(2), ct));
        await orphan.WaitForExitAsync(ct);
        Assert.Equal(128 + 9, orphan.ExitCode); // killed by SIGKILL
        Assert.False(File.Exists(file));
    }
}
