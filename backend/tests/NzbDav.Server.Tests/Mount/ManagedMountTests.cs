using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Server.Mount;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.Ingestion;
using NzbDav.Server.Tests.Monitoring;
using NzbDav.Server.Tests.RealClients;
using NzbDav.Server.Tests.WebUi;
using NzbDav.Testing;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Server.Tests.Mount;

/// <summary>
/// The managed mount with the real Debian rclone and FUSE: NzbDav mounts its own tree, a file
/// reads back byte-exact through the kernel, a completed job shows in the mount within a second
/// (rclone's directory cache set to an hour, so only NzbDav's refresh can show it), rclone killed
/// comes back, a stale mount a crash left is cleared, a non-empty folder is refused, and stopping
/// unmounts. Skips, saying why, where FUSE cannot be used.
/// </summary>
[SlowTest("real rclone FUSE mounts, killed and mounted again")]
public sealed class ManagedMountTests(MockProviderFixture provider)
{
    private const string Release = "Managed.Show.S01E01";
    private const string FileName = "Managed.Show.S01E01.mkv";

    [Fact]
    public async Task The_mount_reads_byte_exact_shows_new_and_deleted_jobs_within_a_second_comes_back_after_rclone_dies_and_unmounts_on_stop()
    {
        var ct = TestContext.Current.CancellationToken;
        SkipWithoutFuse();
        using var data = new TempDirectory();
        var mount = Path.Combine(data.Path, "mnt");
        var nntp = provider.Server;
        var content = new byte[2_000_003];
        new Random(21).NextBytes(content);
        var nzb = provider.Nzb(Release, nntp.Store.AddFile(FileName, content, 100_000));

        var host = await IngestionHost.StartAsync(data.Path, nntp.Port, ct, TestContext.Current.TestOutputHelper,
            "--Mount:Enabled=true", "--NzbDav:MountPath=" + mount, "--Mount:DirCacheTime=1h");
        try
        {
            await MountHealth.WaitMountedAsync(host.Server, ct);
            // rclone now trusts its listing of content/tv for an hour.
            var category = Path.Combine(mount, "content", "tv");
            Assert.True(Directory.Exists(category));
            Assert.Empty(Directory.EnumerateFileSystemEntries(category));

            var slot = await host.AddAndWaitAsync(nzb, Release + ".nzb", ct);
            Assert.Equal("Completed", slot.GetProperty("status").GetString());
            var file = Path.Combine(category, Release, FileName);
            await WaitUntilAsync(() => File.Exists(file), ct);
            var seen = DateTime.UtcNow;
            DateTime completedAt;
            await using (var context = await host.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
                completedAt = (await context.Jobs.SingleAsync(ct)).CompletedAt!.Value;
            var visibleAfter = seen - completedAt;
            TestContext.Current.TestOutputHelper?.WriteLine($"Visible in the mount {visibleAfter.TotalMilliseconds:F0} ms after Completed");
            Assert.True(visibleAfter < TimeSpan.FromSeconds(1), $"the job showed in the mount {visibleAfter.TotalMilliseconds:F0} ms after it completed");

            var whole = await File.ReadAllBytesAsync(file, ct);
            Assert.True(content.AsSpan().SequenceEqual(whole), "the file read through the mount differs from the posted bytes");

            using (var scraper = new HttpClient { BaseAddress = host.Server.Http.BaseAddress })
            {
                scraper.DefaultRequestHeaders.Add("X-Api-Key", TestServer.ApiKey);
                var metrics = await PrometheusScrape.GetAsync(scraper, "/metrics", ct);
                Assert.Equal(1, metrics.Value("nzbdav_mount_up"));
                Assert.Equal(0, metrics.Value("nzbdav_mount_restarts_total"));
                Assert.True(metrics.Value("nzbdav_mount_refreshes_total", ("outcome", "ok")) >= 1);
                Assert.NotNull(metrics.Find("nzbdav_mount_cache_bytes"));
            }

            // rclone dies: the mount comes back by itself and serves the same bytes.
            var rclone = RclonePids(mount).Single();
            using (var killed = Process.GetProcessById(rclone))
                killed.Kill();
            var health = await MountHealth.WaitAsync(host.Server, h => h.GetProperty("restarts").GetInt32() >= 1 && h.GetProperty("state").GetString() == "mounted", ct);
            Assert.Contains("rclone exited", health.GetProperty("lastError").GetString(), StringComparison.Ordinal);
            Assert.NotEqual(rclone, RclonePids(mount).Single());
            await using (var stream = File.OpenRead(file))
            {
                var part = new byte[65_536];
                stream.Seek(1_000_000, SeekOrigin.Begin);
                await stream.ReadExactlyAsync(part, ct);
                Assert.True(content.AsSpan(1_000_000, part.Length).SequenceEqual(part));
            }

            // Deleted from the library (the UI's delete with files): gone from the mount at once too.
            await host.Server.Services.GetRequiredService<NzbDav.Server.Queue.JobCommands>().DeleteAsync([slot.GetProperty("nzo_id").GetString()!], NzbDav.Server.Queue.JobCommands.HistoryStatuses, ct);
            var gone = Stopwatch.GetTimestamp();
            await WaitUntilAsync(() => !Directory.Exists(Path.Combine(category, Release)), ct);
            // The kernel keeps a name it looked up for rclone's --attr-timeout (1 s) whatever rclone
            // forgets, so a folder just read can take that long to go; rclone's hour would be far longer.
            Assert.True(Stopwatch.GetElapsedTime(gone) < TimeSpan.FromSeconds(2), $"the deleted job stayed in the mount {Stopwatch.GetElapsedTime(gone).TotalMilliseconds:F0} ms");
        }
        finally
        {
            await host.DisposeAsync();
        }

        // Stopped: unmounted, and rclone is gone.
        Assert.Null(MountPoints.MountedType(mount));
        Assert.Empty(RclonePids(mount));
    }

    [Fact]
    public async Task A_stale_mount_a_crash_left_is_cleared_and_a_non_empty_folder_is_refused_without_touching_it()
    {
        var ct = TestContext.Current.CancellationToken;
        SkipWithoutFuse();
        using var data = new TempDirectory();
        var mount = Path.Combine(data.Path, "mnt");
        Directory.CreateDirectory(mount);

        // An rclone killed outright leaves its mount behind: "Transport endpoint is not connected".
        var leftover = Process.Start(new ProcessStartInfo("rclone", ["mount", ":memory:", mount]) { RedirectStandardError = true })!;
        await WaitUntilAsync(() => MountPoints.MountedType(mount) is not null || leftover.HasExited, ct);
        if (leftover.HasExited)
            Assert.Skip("FUSE is not usable here: rclone mount exited with " + leftover.ExitCode + ": " + await leftover.StandardError.ReadToEndAsync(ct));
        leftover.Kill();
        await leftover.WaitForExitAsync(ct);
        leftover.Dispose();
        Assert.False(MountPoints.IsReadable(mount, out var stale), "a killed rclone should leave a dead mount");
        TestContext.Current.TestOutputHelper?.WriteLine("Left behind: " + stale);

        await using (var host = await IngestionHost.StartAsync(data.Path, null, new TestOutputLogger(TestContext.Current.TestOutputHelper!, "NzbDav.Server"), ct, "--Mount:Enabled=true", "--NzbDav:MountPath=" + mount))
        {
            var health = await MountHealth.WaitMountedAsync(host.Server, ct);
            Assert.Equal(0, health.GetProperty("restarts").GetInt32());
            Assert.True(Directory.Exists(Path.Combine(mount, "content")));
        }
        Assert.Null(MountPoints.MountedType(mount));

        // A folder with files in it is never mounted over: they would vanish from view.
        var keep = Path.Combine(mount, "keep.txt");
        await File.WriteAllTextAsync(keep, "mine", ct);
        await using (var host = await IngestionHost.StartAsync(data.Path, null, new TestOutputLogger(TestContext.Current.TestOutputHelper!, "NzbDav.Server"), ct, "--Mount:Enabled=true", "--NzbDav:MountPath=" + mount))
        {
            var health = await MountHealth.WaitAsync(host.Server, h => h.GetProperty("state").GetString() == "failed", ct);
            Assert.Contains("is not empty", health.GetProperty("lastError").GetString(), StringComparison.Ordinal);
            Assert.Null(MountPoints.MountedType(mount));
        }
        Assert.Equal("mine", await File.ReadAllTextAsync(keep, ct));
    }

    [Fact]
    public async Task Turned_on_and_off_on_the_Settings_page_the_mount_follows_at_once()
    {
        var ct = TestContext.Current.CancellationToken;
        SkipWithoutFuse();
        const string Admin = "correct horse battery";
        using var data = new TempDirectory();
        var mount = Path.Combine(data.Path, "mnt");
        await using var host = await IngestionHost.StartAsync(data.Path, null, new TestOutputLogger(TestContext.Current.TestOutputHelper!, "NzbDav.Server"), ct,
            "--NzbDav:MountPath=" + mount, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);
        using var ui = new UiClient(host.Server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        Assert.Null(MountPoints.MountedType(mount));

        using (var on = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string> { ["Mount:Enabled"] = "true" } }, ct))
            Assert.True(on.IsSuccessStatusCode, await on.Content.ReadAsStringAsync(ct));
        await MountHealth.WaitMountedAsync(host.Server, ct);
        Assert.StartsWith("fuse", MountPoints.MountedType(mount), StringComparison.Ordinal);

        using (var off = await ui.PostAsync("/ui/api/settings", new { values = new Dictionary<string, string> { ["Mount:Enabled"] = "false" } }, ct))
            Assert.True(off.IsSuccessStatusCode, await off.Content.ReadAsStringAsync(ct));
        // Unmounted first, then rclone exits by itself.
        await WaitUntilAsync(() => MountPoints.MountedType(mount) is null && RclonePids(mount).Count == 0, ct);
    }

    private static void SkipWithoutFuse()
    {
        if (RcloneMount.Unusable(out _) is { } reason)
            Assert.Skip("FUSE is not usable here: " + reason);
    }

    /// <summary>The rclone processes mounting <paramref name="mount"/>.</summary>
    private static List<int> RclonePids(string mount)
    {
        var pids = new List<int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), out var pid))
                continue;
            try
            {
                var arguments = File.ReadAllText(Path.Combine(directory, "cmdline")).Split('\0');
                if (arguments.Length > 0 && Path.GetFileName(arguments[0]) == "rclone" && arguments.Contains("mount") && arguments.Contains(mount))
                    pids.Add(pid);
            }
            catch (IOException)
            {
                // The process ended while we looked.
            }
        }
        return pids;
    }
}
