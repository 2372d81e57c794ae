using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data.Entities;
using NzbDav.Streaming;

namespace NzbDav.Server.Tests.Health;

/// <summary>Health checks over real sockets: the host, mock providers (primary and backup), a fake Sonarr.</summary>
public sealed class HealthCheckTests
{
    [Fact]
    public async Task Import_check_records_a_healthy_file_with_its_release_date_and_a_stretched_schedule()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        var (_, slot) = await health.AddAsync(ct);
        Assert.Equal("Completed", slot.GetProperty("status").GetString());
        var itemId = await health.ItemIdAsync(ct);

        var row = await health.HealthAsync(itemId, ct);
        Assert.NotNull(row);
        Assert.Equal(FileHealthState.Healthy, row.State);
        Assert.Equal(HealthHost.Segments, row.SegmentCount);
        // First two, last two, and an even sample of at least 8.
        Assert.InRange(row.CheckedSegments, 8, HealthHost.Segments);
        Assert.NotNull(row.LastCheckedAt);
        // The mock posts "now": the release is minutes old, so the next check is the minimum hour away (± jitter).
        Assert.InRange(row.NextCheckAt - row.LastCheckedAt!.Value, TimeSpan.FromMinutes(53), TimeSpan.FromMinutes(67));
        Assert.True(health.Primary.Stats.GetCommandCount(NzbDav.MockNntp.MockCommandKind.Stat) >= row.CheckedSegments);
    }

    [Fact]
    public async Task The_scheduler_checks_a_file_when_its_clock_passes_NextCheckAt_and_confirms_a_suspect_after_ConfirmDelay()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--Health:ConfirmDelay=00:10:00");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        var imported = (await health.HealthAsync(itemId, ct))!;
        var checks = health.Checks.ChecksDone;
        var passes = health.Checks.PassesDone;

        // A second before it is due: the scheduler wakes (its minute of sleep is over) and checks nothing.
        health.Clock.Advance(imported.NextCheckAt - health.Clock.GetUtcNow().UtcDateTime - TimeSpan.FromSeconds(1));
        await health.WaitForPassesAsync(passes + 1, ct);
        Assert.Equal(checks, health.Checks.ChecksDone);
        Assert.Equal(imported.LastCheckedAt, (await health.HealthAsync(itemId, ct))!.LastCheckedAt);

        // Past it: the next pass (a second later on the clock) checks the file, at the clock's time.
        health.Clock.Advance(TimeSpan.FromSeconds(2));
        await health.WaitForChecksAsync(checks + 1, ct);
        await health.WaitForPassesAsync(passes + 2, ct); // that pass is over: the scheduler sleeps again
        var scheduled = (await health.HealthAsync(itemId, ct))!;
        Assert.Equal(health.Clock.GetUtcNow().UtcDateTime, scheduled.LastCheckedAt);
        Assert.Equal(FileHealthState.Healthy, scheduled.State);

        // Three segments go; a full check sees them once: suspects, due again ConfirmDelay later.
        HealthHost.SetMissing(health.Primary, 50, 52, missing: true);
        var sighted = await health.Checks.CheckNowAsync(itemId, full: true, ct);
        Assert.Equal((FileHealthState.Unknown, 3, 0), (sighted!.State, sighted.Suspects, sighted.ConfirmedHoles));
        var sightedAt = health.Clock.GetUtcNow().UtcDateTime;
        Assert.Equal(sightedAt + TimeSpan.FromMinutes(10), sighted.NextCheckAt);
        checks = health.Checks.ChecksDone;
        passes = health.Checks.PassesDone;

        // A second short of the delay the scheduler looks, and leaves the suspects be.
        health.Clock.Advance(TimeSpan.FromMinutes(10) - TimeSpan.FromSeconds(1));
        await health.WaitForPassesAsync(passes + 1, ct);
        Assert.Equal(checks, health.Checks.ChecksDone);
        Assert.Equal(FileHealthState.Unknown, (await health.HealthAsync(itemId, ct))!.State);

        // Past it, the scheduled check sees them again and confirms them: holes, within the tolerance.
        health.Clock.Advance(TimeSpan.FromSeconds(2));
        await health.WaitForChecksAsync(checks + 1, ct);
        var confirmed = (await health.HealthAsync(itemId, ct))!;
        Assert.Equal((FileHealthState.Degraded, 3), (confirmed.State, confirmed.MissingCount));
        Assert.Equal(health.Clock.GetUtcNow().UtcDateTime, confirmed.LastCheckedAt);
        Assert.Empty(health.Sonarr.Calls);
    }

    [Fact]
    public async Task A_dead_release_fails_at_import_in_seconds_with_the_reason()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        // A takedown: the second half of the file is gone (the first article, which ingestion reads, is not).
        HealthHost.SetMissing(health.Primary, 100, HealthHost.Segments, missing: true);
        var started = Stopwatch.GetTimestamp();

        var (_, slot) = await health.AddAsync(ct);

        var elapsed = Stopwatch.GetElapsedTime(started);
        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        var message = slot.GetProperty("fail_message").GetString()!;
        Assert.Contains("Articles missing", message);
        Assert.Contains(HealthHost.FileName, message);
        Assert.Contains("last segment", message);
        Assert.True(elapsed < TimeSpan.FromSeconds(10), $"the dead release took {elapsed.TotalSeconds:F1} s to fail");
        Assert.Empty(health.Sonarr.Calls);
    }

    [Fact]
    public async Task A_provider_that_lost_articles_a_backup_still_has_leaves_the_file_healthy()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: true, ct);
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        HealthHost.SetMissing(health.Primary, 20, 60, missing: true);

        var result = await health.CheckTwiceAsync(itemId, full: true, ct);

        Assert.Equal(FileHealthState.Healthy, result.State);
        Assert.Equal(HealthHost.Segments, result.Present);
        Assert.True(health.Backup!.Stats.GetCommandCount(NzbDav.MockNntp.MockCommandKind.Stat) >= 41 * 2, "the backup was asked for what the primary lost");
        Assert.Empty(health.Sonarr.Calls);
    }

    [Fact]
    public async Task A_transient_burst_of_430s_and_provider_faults_never_make_a_file_worse_than_unknown_nor_call_Sonarr()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: true, ct);
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);

        // A burst: both providers answer 430 for a long run, once.
        HealthHost.SetMissing(health.Primary, 30, 90, missing: true);
        HealthHost.SetMissing(health.Backup!, 30, 90, missing: true);
        var during = await health.Checks.CheckNowAsync(itemId, full: true, ct);
        Assert.Equal(FileHealthState.Unknown, during!.State);
        Assert.Equal(61, during.Suspects);
        Assert.Equal(0, during.ConfirmedHoles);
        HealthHost.SetMissing(health.Primary, 30, 90, missing: false);
        HealthHost.SetMissing(health.Backup!, 30, 90, missing: false);
        health.Clock.Advance(HealthHost.ConfirmDelay);
        var after = await health.Checks.CheckNowAsync(itemId, full: false, ct);
        Assert.Equal(FileHealthState.Healthy, after!.State);
        Assert.Equal(0, after.Suspects);

        // Faults: the backup is gone (connections refused) while the primary answers 430: nobody can say the article is gone.
        await health.Backup!.DisposeAsync();
        HealthHost.SetMissing(health.Primary, 50, 150, missing: true);
        var faulted = await health.CheckTwiceAsync(itemId, full: true, ct);
        Assert.Equal(FileHealthState.Unknown, faulted.State);
        Assert.Equal(0, faulted.ConfirmedHoles);
        Assert.True(faulted.Unknown >= 101, $"{faulted.Unknown} unknown");

        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(RepairStatus.None, row!.Repair);
        Assert.Empty(health.Sonarr.Calls);
        Assert.DoesNotContain(await health.AuditAsync(ct), a => a.Action.StartsWith("repair", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Check_now_wakes_the_scheduler_so_the_confirming_check_comes_when_due_not_a_minute_later()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct, "--Health:Par2Repair=false");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        HealthHost.SetMissing(health.Primary, 90, 90, missing: true);

        // The UI's Check now: one sighting, a suspect, confirmed by a check ConfirmDelay later.
        var first = await health.Checks.CheckNowAsync(itemId, full: true, ct);
        Assert.Equal((FileHealthState.Unknown, 1), (first!.State, first.Suspects));
        var done = health.Checks.ChecksDone;

        // Only the confirmation delay passes, far short of the scheduler's minute of sleep.
        health.Clock.Advance(HealthHost.ConfirmDelay);
        await health.WaitForChecksAsync(done + 1, ct);

        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal((FileHealthState.Degraded, 1), (row!.State, row.MissingCount));
    }

    [Fact]
    public async Task Holes_within_the_tolerance_make_the_file_Degraded_and_it_plays_end_to_end_with_zeros_there()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        var (nzoId, _) = await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        HealthHost.SetMissing(health.Primary, 50, 52, missing: true);
        HealthHost.SetMissing(health.Primary, 120, 120, missing: true);

        // A sampled check may miss a hole; a full one finds every hole, the second confirms them.
        var result = await health.CheckTwiceAsync(itemId, full: true, ct);

        Assert.Equal(FileHealthState.Degraded, result.State);
        Assert.Equal(4, result.ConfirmedHoles);
        var metrics = health.Services.GetRequiredService<StreamingMetrics>();
        var filledBefore = metrics.HoleSegments;
        var bodiesBefore = health.Primary.Stats.GetCommandCount(NzbDav.MockNntp.MockCommandKind.Body);
        using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
        Assert.Equal(System.Net.HttpStatusCode.OK, response.StatusCode);
        var body = await response.Content.ReadAsByteArrayAsync(ct);
        var expected = (byte[])health.Content.Clone();
        Array.Clear(expected, 49 * HealthHost.SegmentSize, 3 * HealthHost.SegmentSize);
        Array.Clear(expected, 119 * HealthHost.SegmentSize, HealthHost.SegmentSize);
        Assert.Equal(expected.Length, body.Length);
        Assert.True(expected.AsSpan().SequenceEqual(body), "every byte outside the holes is the file's, the holes are zeros");
        Assert.Equal(4, metrics.HoleSegments - filledBefore);
        // The holes were never asked for.
        Assert.Equal(HealthHost.Segments - 4, health.Primary.Stats.GetCommandCount(NzbDav.MockNntp.MockCommandKind.Body) - bodiesBefore);
        Assert.Empty(health.Sonarr.Calls);
        Assert.Contains(await health.AuditAsync(ct), a => a.Action == "state" && a.Detail.Contains("Degraded", StringComparison.Ordinal));
        _ = nzoId;
    }

    [Fact]
    public async Task A_failed_streaming_read_asks_for_an_urgent_check_and_repairs_nothing_by_itself()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var health = await HealthHost.StartAsync(withBackup: false, ct);
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        var checksBefore = health.Checks.ChecksDone;
        HealthHost.SetMissing(health.Primary, 100, 100, missing: true);
        // A second after the import's check on the clock, so the urgent check's time is its own.
        health.Clock.Advance(TimeSpan.FromSeconds(1));

        // The player's read of the gone segment fails (the connection is cut, never a short body).
        await Assert.ThrowsAnyAsync<HttpRequestException>(async () =>
        {
            using var response = await health.Host.GetAsync(HealthHost.Release, HealthHost.FileName, ct);
            await response.Content.ReadAsByteArrayAsync(ct);
        });

        await health.WaitForChecksAsync(checksBefore + 1, ct); // the urgent check after the read error
        var row = await health.HealthAsync(itemId, ct);
        Assert.Equal(health.Clock.GetUtcNow().UtcDateTime, row!.LastCheckedAt);
        Assert.False(row.Urgent);
        // One sighting is a suspect, not a hole: no state worse than Unknown, no call to Sonarr.
        Assert.Equal(FileHealthState.Unknown, row.State);
        Assert.Empty(health.Sonarr.Calls);
    }

    [Fact]
    public async Task Provider_timeouts_leave_a_file_Unknown_and_the_metrics_count_files_and_STATs_by_outcome()
    {
        var ct = TestContext.Current.CancellationToken;
        // Short deadlines, so a hanging provider costs this test a second, not thirty; the mock's
        // stall is real time, so the host's clock is too.
        await using var health = await HealthHost.StartOnSystemClockAsync(withBackup: false, ct,
            "--Usenet:Providers:0:OperationTimeout=00:00:00.500", "--Usenet:MaxAttemptsPerProvider=1");
        await health.AddAsync(ct);
        var itemId = await health.ItemIdAsync(ct);
        health.Primary.Behavior.StallDuration = TimeSpan.FromSeconds(5);
        health.Primary.Behavior.StallFraction = 1;

        var result = await health.Checks.CheckNowAsync(itemId, full: false, ct);

        Assert.Equal(FileHealthState.Unknown, result!.State);
        Assert.Equal(result.Checked, result.Unknown);
        Assert.Equal(0, result.Missing);
        Assert.Empty(health.Sonarr.Calls);

        using var scraper = new HttpClient { BaseAddress = health.Host.Server.Http.BaseAddress };
        scraper.DefaultRequestHeaders.Add("X-Api-Key", Api.TestServer.ApiKey);
        var scrape = await Monitoring.PrometheusScrape.GetAsync(scraper, "/metrics", ct);
        Assert.Equal(1, scrape.Value("nzbdav_health_files", ("state", "unknown")));
        Assert.Equal(0, scrape.Value("nzbdav_health_files", ("state", "broken")));
        Assert.True(scrape.Value("nzbdav_health_stats_total", ("outcome", "unknown")) >= result.Unknown);
        Assert.True(scrape.Value("nzbdav_health_stats_total", ("outcome", "present")) >= 0);
    }
}
