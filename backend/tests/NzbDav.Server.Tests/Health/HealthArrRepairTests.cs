using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.MockNntp.Nzb;

namespace NzbDav.Server.Tests.Health;

/// <summary>
/// What a Broken file's repair through Sonarr/Radarr does, over real sockets: the host, a mock
/// provider and a fake Sonarr; the call order, the window, dry run, deferral and the hourly cap.
/// </summary>
public sealed class HealthArrRepairTests
{
    [Fact]
    public async Task Beyond_the_tolerance_a_file_is_Broken_and_exactly_one_repair_runs_with_Sonarr_calls_in_order()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        var (nzoId, _) = await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        var download = health.Sonarr.Calls.Count;
        Assert.Equal(0, download);
        HealthHost.SetMissing(health.Primary, 60, 80, missing: true);

        var result = await health.CheckTwiceAsync(itemId, full: true, ct);
        Assert.Equal(FileHealthState.Broken, result.State);

        var calls = health.Sonarr.Calls.Select(c => $"{c.Method} {c.PathAndQuery.Split('?')[0]} {c.Status}").ToList();
        Assert.Equal("GET /api/v3/history 200", calls[0]);
        var writes = health.Sonarr.Writes.Select(c => $"{c.Method} {c.PathAndQuery.Split('?')[0]} {c.Status}").ToList();
        Assert.Equal(3, writes.Count);
        Assert.StartsWith("POST /api/v3/history/failed/", writes[0], StringComparison.Ordinal);
        Assert.StartsWith("DELETE /api/v3/episodefile/", writes[1], StringComparison.Ordinal);
        Assert.StartsWith("POST /api/v3/command", writes[2], StringComparison.Ordinal);
        Assert.All(writes, w => Assert.True(w.EndsWith(" 200", StringComparison.Ordinal) || w.EndsWith(" 201", StringComparison.Ordinal), w));
        var search = Assert.Single(health.Sonarr.Commands);
        Assert.Equal("EpisodeSearch", search.Name);

        // Only after Sonarr accepted every step did the job leave the library, failed with the reason.
        var history = (await health.Host.Server.GetAsync("mode=history&apikey=" + Api.TestServer.ApiKey, ct)).GetProperty("history").GetProperty("slots");
        var slot = history.EnumerateArray().Single(s => s.GetProperty("nzo_id").GetString() == nzoId);
        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        Assert.Contains("Broken", slot.GetProperty("fail_message").GetString());
        Assert.Null(await health.HealthAsync(itemId, ct));
        await using (var context = await health.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
            Assert.False(await context.DavItems.AnyAsync(i => i.Id == itemId, ct));
        var audit = await health.AuditAsync(ct);
        Assert.Equal(1, audit.Count(a => a.Action == "repair"));
        Assert.Equal(health.Sonarr.Calls.Count, audit.Count(a => a.Action == "arr-call"));
        Assert.Contains(audit, a => a.Action == "repair-repaired");

        // Checking again finds nothing to check, and nothing repairs twice.
        Assert.Null(await health.Checks.CheckNowAsync(itemId, full: false, ct));
        Assert.Equal(3, health.Sonarr.Writes.Count);

        // Sonarr grabs the same release again: it fails at import at once, naming why.
        var started = Stopwatch.GetTimestamp();
        var regrab = await health.Host.AddAndWaitAsync(health.Nzb, HealthHost.Release + ".nzb", ct);
        Assert.Equal("Failed", regrab.GetProperty("status").GetString());
        Assert.Contains("found Broken before", regrab.GetProperty("fail_message").GetString());
        Assert.True(Stopwatch.GetElapsedTime(started) < TimeSpan.FromSeconds(10));
    }

    [Fact]
    public async Task A_half_done_repair_is_not_started_again_inside_the_window_the_file_needs_the_user()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--Health:RepairRetry=00:00:01");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        health.Sonarr.FailOn("POST", "/api/v3/command", 500);
        HealthHost.SetMissing(health.Primary, 60, 80, missing: true);

        Assert.Equal(FileHealthState.Broken, (await health.CheckTwiceAsync(itemId, full: true, ct)).State);
        var deferred = await health.HealthAsync(itemId, ct);
        Assert.Equal(RepairStatus.Deferred, deferred!.Repair);
        Assert.NotNull(deferred.LastRepairAt);
        var writes = health.Sonarr.Writes.Count;
        Assert.Equal(3, writes);
        // The grab was blocklisted and the file deleted: the episode is guarded by the window as after a whole repair.
        await using (var context = await health.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
            Assert.NotEmpty(await context.ArrRepairedItems.Where(r => r.Instance == "sonarr").ToListAsync(ct));

        // Past the retry delay, the next check finds it Broken again: inside the window, no second repair.
        health.Clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(FileHealthState.Broken, (await health.Checks.CheckNowAsync(itemId, full: false, ct))!.State);
        var after = await health.HealthAsync(itemId, ct);
        Assert.Equal(RepairStatus.ActionNeeded, after!.Repair);
        Assert.Equal(writes, health.Sonarr.Writes.Count);
        Assert.Contains(await health.AuditAsync(ct), a => a.Action == "action-needed");
    }

    [Fact]
    public async Task A_replacement_that_goes_bad_inside_the_window_is_not_repaired_again_so_repairs_cannot_loop()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        HealthHost.SetMissing(health.Primary, 60, 80, missing: true);
        Assert.Equal(FileHealthState.Broken, (await health.CheckTwiceAsync(itemId, full: true, ct)).State);
        Assert.Equal(3, health.Sonarr.Writes.Count);
        var episode = Assert.Single(Assert.Single(health.Sonarr.Commands).Ids);

        // Sonarr's search grabs another release of the episode; it imports, then loses articles too.
        const string Replacement = "Show.S01E01.REPACK.1080p-OTHER";
        var content = new byte[HealthHost.Segments * HealthHost.SegmentSize];
        new Random(8).NextBytes(content);
        var file = health.Primary.Store.AddFile("Show.S01E01.REPACK.mkv", content, HealthHost.SegmentSize);
        using var nzb = new MemoryStream();
        MockNzbWriter.Write(nzb, [file], Replacement, DateTimeOffset.UtcNow.AddDays(-1));
        var slot = await health.Host.AddAndWaitAsync(nzb.ToArray(), Replacement + ".nzb", ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        health.Sonarr.SeedReplacement(slot.GetProperty("nzo_id").GetString()!, Replacement, episode, "Show.S01E01.REPACK.mkv");
        Guid replacementId;
        await using (var context = await health.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
            replacementId = await context.DavItems.Where(i => i.Name == "Show.S01E01.REPACK.mkv").Select(i => i.Id).SingleAsync(ct);
        health.Primary.Store.SetMissing(file, 100, 120, missing: true);

        Assert.Equal(FileHealthState.Broken, (await health.CheckTwiceAsync(replacementId, full: true, ct)).State);

        // Sonarr was asked whose download it is, and nothing else: the episode waits for the user.
        Assert.Equal(3, health.Sonarr.Writes.Count);
        var row = await health.HealthAsync(replacementId, ct);
        Assert.Equal(RepairStatus.ActionNeeded, row!.Repair);
        Assert.Contains("already replaced", row.RepairMessage, StringComparison.Ordinal);
        Assert.Contains(await health.AuditAsync(ct), a => a.Action == "repair-recentlyrepaired" && a.DavItemId == replacementId);
        await using (var context = await health.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct))
            Assert.True(await context.DavItems.AnyAsync(i => i.Id == replacementId, ct));
    }

    [Fact]
    public async Task A_dry_run_repair_only_reads_from_Sonarr_and_leaves_the_file_in_the_library()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--Health:DryRun=true");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        HealthHost.SetMissing(health.Primary, 60, 80, missing: true);

        Assert.Equal(FileHealthState.Broken, (await health.CheckTwiceAsync(itemId, full: true, ct)).State);

        Assert.NotEmpty(health.Sonarr.Calls);
        Assert.Empty(health.Sonarr.Writes);
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(RepairStatus.DryRun, row!.Repair);
        var audit = await health.AuditAsync(ct);
        Assert.Contains(audit, a => a.Action == "arr-call" && a.Detail.Contains("not sent (dry run)", StringComparison.Ordinal));
        // Logged once: a later check of the same Broken file does not repeat the dry run.
        var repairs = audit.Count(a => a.Action == "repair");
        await health.Checks.CheckNowAsync(itemId, full: false, ct);
        Assert.Equal(repairs, (await health.AuditAsync(ct)).Count(a => a.Action == "repair"));
    }

    [Fact]
    public async Task A_Sonarr_that_fails_defers_the_repair_and_the_hourly_cap_holds_the_retry()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--Health:RepairRetry=00:00:01", "--Health:MaxRepairsPerHour=1");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        health.Sonarr.FailOn("GET", "/api/v3/history", 500);
        HealthHost.SetMissing(health.Primary, 60, 80, missing: true);

        Assert.Equal(FileHealthState.Broken, (await health.CheckTwiceAsync(itemId, full: true, ct)).State);
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(RepairStatus.Deferred, row!.Repair);
        Assert.Empty(health.Sonarr.Writes);
        var calls = health.Sonarr.Calls.Count;
        Assert.True(calls >= 1);

        // Past the retry delay the repair may be tried again, but one already started this hour.
        health.Clock.Advance(TimeSpan.FromSeconds(1));
        await health.Checks.CheckNowAsync(itemId, full: false, ct);
        row = await health.HealthAsync(itemId, ct);
        Assert.Equal(RepairStatus.Deferred, row!.Repair);
        Assert.Contains("limit 1", row.RepairMessage, StringComparison.Ordinal);
        Assert.Equal(calls, health.Sonarr.Calls.Count);
        Assert.True(await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct, "bytes=0-999") is { IsSuccessStatusCode: true }, "nothing was deleted");
    }
}
