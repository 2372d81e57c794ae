using System.Security.Cryptography;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Par2;
using NzbDav.Streaming;

namespace NzbDav.Server.Tests.Health;

/// <summary>
/// PAR2 repair through the real host: a release whose recovery data Debian's par2 made loses
/// articles on every provider, the health checks confirm the holes, the repair rebuilds them from
/// the recovery volume over the mock provider, and WebDAV then serves the file's true bytes.
/// </summary>
public sealed class Par2RepairServerTests
{
    [Fact]
    public async Task Confirmed_holes_are_rebuilt_from_the_releases_par2_and_the_file_then_plays_its_true_bytes()
    {
        var ct = TestContext.Current.CancellationToken;
        // Repairs only when asked: the plan and the repair are this test's.
        await using var health = await HealthHost.StartWithPar2Async(10, ct, "--Health:Par2Repair=false");
        var (itemId, checkedOnce) = await health.AddLoseAndCheckAsync(ct, (50, 52), (120, 120));
        Assert.Equal(FileHealthState.Degraded, checkedOnce.State);
        var jobId = await JobIdAsync(health, itemId, ct);
        var repairer = health.Services.GetRequiredService<Par2JobRepairer>();

        // Segments 50-52 lie in slice 12 (bytes 48,000-51,999), segment 120 in slice 29: 2 of 50 lost, 5 to rebuild from.
        var plan = await repairer.PlanAsync(jobId, ct);
        Assert.True(plan.Possible, plan.Summary);
        Assert.Equal((2, 5), (plan.MissingSlices, plan.RecoveryAvailable));
        Assert.Contains("fetches", plan.Summary, StringComparison.Ordinal);

        var result = await repairer.RepairAsync(jobId, ct);

        Assert.True(result.Repaired, result.Message);
        Assert.Equal(4, result.SegmentsRebuilt);
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(FileHealthState.Healthy, row!.State);
        Assert.StartsWith("Repaired with PAR2: 4 segment(s) rebuilt", row.RepairMessage, StringComparison.Ordinal);
        var audit = await health.AuditAsync(ct);
        Assert.Contains(audit, a => a.Action == "par2-plan");
        Assert.Contains(audit, a => a.Action == "par2-repaired");

        // What a repair must read at least: the surviving 48 slices and 2 recovery slices.
        var surviving = HealthHost.Segments * HealthHost.SegmentSize - (2 * HealthHost.Par2SliceSize);
        Assert.Equal(surviving + (2 * HealthHost.Par2SliceSize), result.SliceBytes);
        TestContext.Current.TestOutputHelper?.WriteLine($"articles {result.DecodedBytes:N0} ({result.ProviderBytes:N0} on the wire) for {result.SliceBytes:N0} bytes of slices: {result.DecodedBytes / (double)result.SliceBytes:F3} ({result.ProviderBytes / (double)result.SliceBytes:F3} on the wire)");
        // Small articles make the index and each volume's own packets weigh more than in a real release.
        Assert.InRange(result.DecodedBytes / (double)result.SliceBytes, 1.0, 1.1);

        var metrics = health.Services.GetRequiredService<StreamingMetrics>();
        var patchedBefore = metrics.PatchedSegments;
        var zerosBefore = metrics.HoleSegments;
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        var body = await response.Content.ReadAsByteArrayAsync(ct);
        Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(body));
        Assert.Equal(4, metrics.PatchedSegments - patchedBefore);
        Assert.Equal(zerosBefore, metrics.HoleSegments);

        // The articles are still gone; the next full check counts them served from the repair, not lost.
        var after = await health.Checks.CheckNowAsync(itemId, full: true, ct);
        Assert.Equal(FileHealthState.Healthy, after!.State);
        Assert.Contains("served from their PAR2 repair", (await health.HealthAsync(itemId, ct))!.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_patch_that_fails_its_check_is_served_as_zeros_never_as_wrong_bytes_and_deleting_the_job_deletes_its_patches()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct, "--Health:Par2Repair=false");
        var (itemId, _) = await health.AddLoseAndCheckAsync(ct, (10, 10));
        var jobId = await JobIdAsync(health, itemId, ct);
        Assert.True((await health.Services.GetRequiredService<Par2JobRepairer>().RepairAsync(jobId, ct)).Repaired);
        var store = health.Services.GetRequiredService<SegmentPatchStore>();
        var patch = Assert.Single(store.ListJob(jobId));
        var directory = Path.Combine(health.DataDirectory, "patches", jobId.ToString("N"));
        var file = Path.Combine(directory, patch.File);
        var bytes = await File.ReadAllBytesAsync(file, ct);
        bytes[patch.Offset + 17] ^= 0xFF;
        await File.WriteAllBytesAsync(file, bytes, ct);

        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        var body = await response.Content.ReadAsByteArrayAsync(ct);
        var expected = (byte[])health.Content.Clone();
        Array.Clear(expected, 9 * HealthHost.SegmentSize, HealthHost.SegmentSize);
        Assert.True(expected.AsSpan().SequenceEqual(body), "the damaged patch's segment reads as zeros, every other byte is the file's");
        Assert.Equal(1, store.CorruptReads);

        // The job folder deleted over WebDAV (a user tidying up; Sonarr's history delete keeps the files).
        using var deleted = await health.Host.Dav.DeleteAsync("/content/tv/" + Uri.EscapeDataString(HealthHost.Release) + "/", ct);
        Assert.True(deleted.IsSuccessStatusCode, deleted.StatusCode.ToString());
        Assert.False(Directory.Exists(directory), "the job's patches went with it");
        Assert.Null(store.ForJob(jobId));
    }

    [Fact]
    public async Task A_file_that_becomes_Degraded_is_repaired_with_par2_by_the_health_checks_themselves()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct);

        var (itemId, result) = await health.AddLoseAndCheckAsync(ct, (77, 77));
        await health.Par2IdleAsync(ct);

        Assert.Equal(FileHealthState.Degraded, result.State);
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(FileHealthState.Healthy, row!.State);
        Assert.StartsWith("Repaired with PAR2: 1 segment(s) rebuilt", row.RepairMessage, StringComparison.Ordinal);
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(await response.Content.ReadAsByteArrayAsync(ct)));
        Assert.Empty(health.Sonarr.Calls);
    }

    [Fact]
    public async Task A_Broken_file_is_rebuilt_with_par2_and_Sonarr_is_never_asked()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct);

        // A run of six (past the three tolerated): Broken, and three slices of the five PAR2 can rebuild.
        var (itemId, result) = await health.AddLoseAndCheckAsync(ct, (60, 65));
        await health.Par2IdleAsync(ct);

        Assert.Equal(FileHealthState.Broken, result.State);
        Assert.Equal(FileHealthState.Healthy, (await health.HealthAsync(itemId, ct))!.State);
        Assert.Empty(health.Sonarr.Calls);
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(await response.Content.ReadAsByteArrayAsync(ct)));
    }

    [Fact]
    public async Task Over_the_per_repair_cap_a_Broken_file_goes_to_Sonarr_with_the_reason_in_the_audit()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct, "--Health:Par2MaxBytesPerRepair=100000");

        var (itemId, _) = await health.AddLoseAndCheckAsync(ct, (60, 65));

        var audit = await health.AuditAsync(ct);
        var skipped = Assert.Single(audit, a => a.Action == "par2-skipped");
        Assert.Contains("over the cap of 100,000 per repair (Health:Par2MaxBytesPerRepair)", skipped.Detail, StringComparison.Ordinal);
        Assert.Contains(audit, a => a.Action == "repair" && a.Detail.Contains("Sonarr/Radarr", StringComparison.Ordinal) && a.Detail.Contains("PAR2 could not", StringComparison.Ordinal));
        Assert.NotEmpty(health.Sonarr.Calls);
        Assert.DoesNotContain(audit, a => a.Action == "par2-repaired");
    }

    [Fact]
    public async Task A_dry_run_only_logs_the_par2_plan()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct, "--Health:DryRun=true");

        var (itemId, _) = await health.AddLoseAndCheckAsync(ct, (60, 65));

        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal((FileHealthState.Broken, RepairStatus.DryRun), (row!.State, row.Repair));
        Assert.StartsWith("Dry run: PAR2 can repair this: 3 lost slice(s) of 50", row.RepairMessage, StringComparison.Ordinal);
        Assert.Empty(health.Services.GetRequiredService<SegmentPatchStore>().ListJob(await JobIdAsync(health, itemId, ct)));
        Assert.Empty(health.Sonarr.Calls);
    }

    [Fact]
    public async Task A_repair_stopped_by_a_restart_starts_again_by_itself_and_nothing_half_written_is_ever_served()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct, "--Health:Par2Repair=false");
        var (itemId, _) = await health.AddLoseAndCheckAsync(ct, (50, 52));
        var jobId = await JobIdAsync(health, itemId, ct);
        // Slow enough that the stop lands while the repair reads the release.
        health.Primary.Behavior.Latency = TimeSpan.FromMilliseconds(100);

        var started = await health.Services.GetRequiredService<HealthRepairer>().StartPar2Async(itemId, ct);

        Assert.StartsWith("PAR2 repair queued: PAR2 can repair this: 1 lost slice(s) of 50", started, StringComparison.Ordinal);
        Assert.Equal(RepairStatus.Repairing, (await health.HealthAsync(itemId, ct))!.Repair);
        var repairs = health.Services.GetRequiredService<Par2Repairs>();
        await WaitForAsync(() => repairs.Of(jobId) is { Running: true, Done: > 0 }, ct);
        var progress = repairs.Of(jobId)!;
        Assert.InRange(progress.Done, 1, progress.Planned);
        Assert.Equal(HealthHost.Segments * HealthHost.SegmentSize, progress.Planned, (double)(2 * HealthHost.Par2SliceSize));
        // What a kill in the middle of writing a patch leaves: a file no row refers to.
        var directory = Directory.CreateDirectory(Path.Combine(health.DataDirectory, "patches", jobId.ToString("N")));
        var leftover = Path.Combine(directory.FullName, "killed.partial");
        await File.WriteAllBytesAsync(leftover, new byte[HealthHost.SegmentSize], ct);

        await health.RestartAsync(ct);
        await WaitForAsync(() => health.Services.GetRequiredService<SegmentPatchStore>().Loaded.IsCompleted, ct);
        // Ten seconds of the host's clock pass while it reads: the rate it ran at is what the next plan's time uses.
        await WaitForAsync(() => health.Services.GetRequiredService<Par2Repairs>().Of(jobId) is { Running: true, Done: > 0 }, ct);
        health.Clock.Advance(TimeSpan.FromSeconds(10));
        health.Primary.Behavior.Latency = TimeSpan.Zero;
        await health.Par2IdleAsync(ct);

        Assert.False(File.Exists(leftover), "a patch file no row refers to is deleted at start, never served");
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal((FileHealthState.Healthy, RepairStatus.None), (row!.State, row.Repair));
        Assert.StartsWith("Repaired with PAR2: 3 segment(s) rebuilt", row.RepairMessage, StringComparison.Ordinal);
        var audit = await health.AuditAsync(ct);
        Assert.Single(audit, a => a.Action == "par2-resumed");
        Assert.Single(audit, a => a.Action == "par2-repaired");
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(await response.Content.ReadAsByteArrayAsync(ct)));

        // The next plan says how long it would take at the rate this repair ran at.
        var rate = health.Services.GetRequiredService<Par2Repairs>().LastBytesPerSecond;
        Assert.True(rate > 0, "the repair's rate is kept");
        HealthHost.SetMissing(health.Primary, 120, 120, missing: true);
        await health.CheckTwiceAsync(itemId, full: true, ct);
        var next = await health.Services.GetRequiredService<Par2JobRepairer>().PlanAsync(jobId, ct);
        Assert.True(next.Possible, next.Summary);
        Assert.Equal(next.BytesToFetch / rate, next.EstimatedSeconds!.Value, 3);
        Assert.Contains("at the last repair's rate", next.Summary, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(3, 3, true)] // one recovery packet of the five damaged: four left for three lost slices
    [InlineData(1, 21, false)] // the whole volume gone
    public async Task Recovery_articles_partly_missing_still_repair_and_too_few_go_on_to_Sonarr_with_need_and_have(int firstLost, int lastLost, bool repaired)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct);
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        HealthHost.SetMissing(health.Primary, 60, 65, missing: true);
        var volume = health.Primary.Store.Files.Single(f => f.Name.Contains(".vol", StringComparison.Ordinal));
        health.Primary.Store.SetMissing(volume, firstLost, Math.Min(lastLost, volume.Articles.Count), missing: true);

        var result = await health.CheckTwiceAsync(itemId, full: true, ct);
        await health.Par2IdleAsync(ct);

        Assert.Equal(FileHealthState.Broken, result.State);
        var audit = await health.AuditAsync(ct);
        var row = await health.HealthAsync(itemId, ct);
        if (repaired)
        {
            Assert.Equal(FileHealthState.Healthy, row!.State);
            Assert.Contains(audit, a => a.Action == "par2-repaired");
            Assert.Empty(health.Sonarr.Calls);
            using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
            Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(await response.Content.ReadAsByteArrayAsync(ct)));
            return;
        }

        var failed = Assert.Single(audit, a => a.Action == "par2-failed");
        Assert.StartsWith("PAR2 repair failed: not enough recovery data: need 3, have 0", failed.Detail, StringComparison.Ordinal);
        Assert.Contains(audit, a => a.Action == "repair" && a.Detail.Contains("PAR2 could not: PAR2 repair failed: not enough recovery data: need 3, have 0", StringComparison.Ordinal));
        Assert.NotEmpty(health.Sonarr.Calls);
        // Sonarr took it: the file left the library.
        Assert.Null(row);
        Assert.Contains(audit, a => a.Action == "removed");
    }

    private static async Task WaitForAsync(Func<bool> condition, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(30));
        while (!condition())
            await Task.Delay(10, deadline.Token);
    }

    [Fact]
    public async Task Holes_in_the_rar_volumes_a_set_protects_are_rebuilt_and_the_file_inside_them_plays_true()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithRarPar2Async(10, ct, "--Health:Par2Repair=false");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        var volumes = health.Primary.Store.Files.Where(f => f.Name.EndsWith(".rar", StringComparison.Ordinal)).ToList();
        Assert.Equal(4, volumes.Count);
        // Two articles of the second volume and one of the fourth: the file inside lies across both.
        health.Primary.Store.SetMissing(volumes[1], 10, 11, missing: true);
        health.Primary.Store.SetMissing(volumes[3], 30, 30, missing: true);

        var checkedTwice = await health.CheckTwiceAsync(itemId, full: true, ct);
        Assert.Equal((FileHealthState.Degraded, 3), (checkedTwice.State, checkedTwice.Missing));
        // Before the repair the holes play as zeros.
        using (var before = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct))
        {
            var played = await before.Content.ReadAsByteArrayAsync(ct);
            Assert.Equal(health.Content.Length, played.Length);
            Assert.NotEqual(SHA256.HashData(health.Content), SHA256.HashData(played));
        }

        var result = await health.Services.GetRequiredService<Par2JobRepairer>().RepairAsync(await JobIdAsync(health, itemId, ct), ct);

        Assert.True(result.Repaired, result.Message);
        Assert.Equal(3, result.SegmentsRebuilt);
        Assert.Equal(FileHealthState.Healthy, (await health.HealthAsync(itemId, ct))!.State);
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(await response.Content.ReadAsByteArrayAsync(ct)));
    }

    [Fact]
    public async Task Verify_at_import_finds_data_posted_wrong_that_every_crc_passes_and_par2_puts_it_right()
    {
        var ct = TestContext.Current.CancellationToken;
        // Eight slices spread over the 50 are read: 0, 7, 14, … 49; byte 57,500 lies in slice 14 (56,000-59,999), segment 58.
        await using var health = await HealthHost.StartWithPar2PostedWrongAsync(57_500, ct, "--Health:Par2VerifyAtImport=true");
        var verifier = health.Services.GetRequiredService<Par2ImportVerifier>();

        await health.AddAsync(ct);
        await WaitForAsync(() => verifier.Pending == 0, ct);
        await health.Par2IdleAsync(ct);

        var itemId = await health.ItemIdAsync(ct);
        var audit = await health.AuditAsync(ct);
        var found = Assert.Single(audit, a => a.Action == "par2-verify-failed");
        Assert.Equal("PAR2 verification at import: 1 of 8 slice(s) read do not match their MD5 and CRC-32 although every article passed its CRC (first: slice 14); their 4 segment(s) read as zeros until repaired.", found.Detail);
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(FileHealthState.Healthy, row!.State);
        Assert.StartsWith("Repaired with PAR2: 4 segment(s) rebuilt", row.RepairMessage, StringComparison.Ordinal);
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        Assert.Equal(SHA256.HashData(health.Content), SHA256.HashData(await response.Content.ReadAsByteArrayAsync(ct)));
    }

    [Fact]
    public async Task Verify_at_import_of_a_release_posted_right_says_every_slice_read_matches()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartWithPar2Async(10, ct, "--Health:Par2VerifyAtImport=true", "--Health:Par2VerifySlices=5");
        var verifier = health.Services.GetRequiredService<Par2ImportVerifier>();

        await health.AddAsync(ct);
        await WaitForAsync(() => verifier.Pending == 0, ct);

        var verified = Assert.Single(await health.AuditAsync(ct), a => a.Action == "par2-verified");
        Assert.Equal("PAR2 verification at import: 5 slice(s) of 50 read, every one matches its MD5 and CRC-32.", verified.Detail);
        Assert.Equal(FileHealthState.Healthy, (await health.HealthAsync(await health.ItemIdAsync(ct), ct))!.State);
    }

    [Fact]
    public async Task A_release_without_par2_says_so_and_changes_nothing()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        var (itemId, _) = await health.AddLoseAndCheckAsync(ct, (30, 30));
        var jobId = await JobIdAsync(health, itemId, ct);

        var result = await health.Services.GetRequiredService<Par2JobRepairer>().RepairAsync(jobId, ct);

        Assert.False(result.Repaired);
        Assert.Equal("The release has no PAR2 files.", result.Message);
        Assert.Equal(FileHealthState.Degraded, (await health.HealthAsync(itemId, ct))!.State);
    }

    private static async Task<Guid> JobIdAsync(HealthHost health, Guid itemId, CancellationToken cancellationToken)
    {
        await using var context = await health.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(cancellationToken);
        return await context.DavItems.Where(i => i.Id == itemId).Select(i => i.JobId).SingleAsync(cancellationToken);
    }
}
