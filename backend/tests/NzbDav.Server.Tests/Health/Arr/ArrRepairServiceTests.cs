using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

/// <summary>
/// The repair through Sonarr and Radarr against fakes that answer as the real v3 APIs do, over real
/// sockets: the exact calls in order, their effects on the Arr's library, and every safeguard
/// (unreachable or failing instances defer, an unknown download changes nothing, a dry run writes nothing).
/// </summary>
public sealed class ArrRepairServiceTests
{
    [Fact]
    public async Task A_broken_episode_of_a_season_pack_is_failed_deleted_and_searched_leaving_the_other_episodes()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var pack = sonarr.SeedImportedDownload("SABnzbd_nzo_pack01", "Show.S01.1080p.WEB-GRP", "Show.S01E01.mkv", "Show.S01E02.mkv", "Show.S01E03.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr", "tv"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_pack01", "tv", "/content/tv/Show.S01.1080p.WEB-GRP/Show.S01E02.mkv"), ct);

        Assert.Equal(ArrRepairResult.Repaired, outcome.Result);
        Assert.Equal("sonarr", outcome.Instance);
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_pack01&page=1&pageSize=100", 200),
            ("GET", "/api/v3/config/downloadclient", 200),
            ("POST", $"/api/v3/history/failed/{pack.GrabIds[0]}", 200),
            ("GET", $"/api/v3/episode/{pack.ItemIds[1]}", 200),
            ("DELETE", $"/api/v3/episodefile/{pack.FileIds[1]}", 200),
            ("POST", "/api/v3/command", 201),
        ], sonarr.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
        AssertSameCalls(sonarr, outcome);

        // The effects: the release blocklisted (one entry for the whole pack), only E02's file gone, E02 searched.
        var blocked = Assert.Single(sonarr.Blocklist);
        Assert.Equal("Show.S01.1080p.WEB-GRP", blocked.SourceTitle);
        Assert.Equal(pack.ItemIds, blocked.ItemIds);
        Assert.True(sonarr.HasFile(pack.FileIds[0]));
        Assert.False(sonarr.HasFile(pack.FileIds[1]));
        Assert.True(sonarr.HasFile(pack.FileIds[2]));
        Assert.Equal(0, sonarr.FileIdOf(pack.ItemIds[1]));
        var search = Assert.Single(sonarr.Commands);
        Assert.Equal("EpisodeSearch", search.Name);
        Assert.Equal([pack.ItemIds[1]], search.Ids);
        Assert.Contains("S01E02", outcome.Reason, StringComparison.Ordinal);
        Assert.Contains("blocklisted", outcome.Reason, StringComparison.Ordinal);

        // Every write is logged at Information; the API key never is.
        Assert.Equal(3, arr.Log.Count(l => l.StartsWith("Information", StringComparison.Ordinal) && l.Contains("answered", StringComparison.Ordinal) && l.Contains("SABnzbd_nzo_pack01", StringComparison.Ordinal) && !l.Contains(" GET ", StringComparison.Ordinal)));
        Assert.DoesNotContain(arr.Log, l => l.Contains(sonarr.ApiKey, StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_second_broken_episode_of_the_same_pack_does_not_blocklist_it_again()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var pack = sonarr.SeedImportedDownload("SABnzbd_nzo_pack02", "Show.S02.1080p.WEB-GRP", "Show.S02E01.mkv", "Show.S02E02.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));
        var first = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_pack02", "tv", "/content/tv/Show.S02.1080p.WEB-GRP/Show.S02E01.mkv"), ct);
        Assert.Equal(ArrRepairResult.Repaired, first.Result);
        Assert.Equal([pack.ItemIds[0]], first.Replaced);
        var before = sonarr.Calls.Count;
        // E01 replaced inside the window does not hold back E02, another episode of the pack.
        var recent = first.Replaced!.Select(id => new ArrRecentRepair("sonarr", id, DateTime.UtcNow, "Show.S02.1080p.WEB-GRP")).ToList();

        var second = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_pack02", "tv", "/content/tv/Show.S02.1080p.WEB-GRP/Show.S02E02.mkv") with { RecentRepairs = recent }, ct);

        Assert.Equal(ArrRepairResult.Repaired, second.Result);
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_pack02&page=1&pageSize=100"),
            ("GET", $"/api/v3/episode/{pack.ItemIds[1]}"),
            ("DELETE", $"/api/v3/episodefile/{pack.FileIds[1]}"),
            ("POST", "/api/v3/command"),
        ], sonarr.Calls.Skip(before).Select(static c => (c.Method, c.PathAndQuery)));
        Assert.Single(sonarr.Blocklist);
        Assert.Contains("already marked failed", second.Reason, StringComparison.Ordinal);
        Assert.False(sonarr.HasFile(pack.FileIds[0]) || sonarr.HasFile(pack.FileIds[1]));
    }

    [Fact]
    public async Task A_broken_movie_is_failed_deleted_and_searched_under_a_url_base()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct, urlBase: "/radarr");
        var movie = radarr.SeedImportedDownload("SABnzbd_nzo_movie1", "Movie.2024.1080p.BluRay-GRP", "Movie.2024.1080p.BluRay-GRP.mkv");
        using var arr = new ArrTestServices(radarr.Instance("radarr", "movies"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_movie1", "movies", "/content/movies/Movie.2024.1080p.BluRay-GRP/Movie.2024.1080p.BluRay-GRP.mkv"), ct);

        Assert.Equal(ArrRepairResult.Repaired, outcome.Result);
        Assert.Equal("radarr", outcome.Instance);
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_movie1&page=1&pageSize=100", 200),
            ("GET", "/api/v3/config/downloadclient", 200),
            ("POST", $"/api/v3/history/failed/{movie.GrabIds[0]}", 200),
            ("GET", $"/api/v3/movie/{movie.ItemIds[0]}", 200),
            ("DELETE", $"/api/v3/moviefile/{movie.FileIds[0]}", 200),
            ("POST", "/api/v3/command", 201),
        ], radarr.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
        AssertSameCalls(radarr, outcome);
        Assert.Single(radarr.Blocklist);
        Assert.False(radarr.HasFile(movie.FileIds[0]));
        var search = Assert.Single(radarr.Commands);
        Assert.Equal("MoviesSearch", search.Name);
        Assert.Equal([movie.ItemIds[0]], search.Ids);
        Assert.Equal(["grabbed", "downloadFolderImported", "downloadFailed"], radarr.EventsOf("SABnzbd_nzo_movie1"));
    }

    [Fact]
    public async Task An_unreachable_instance_defers_the_repair_without_any_write()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        sonarr.SeedImportedDownload("SABnzbd_nzo_down01", "Show.S01E01.1080p-GRP", "Show.S01E01.mkv");
        var instance = sonarr.Instance("sonarr");
        await sonarr.StopAsync();
        using var arr = new ArrTestServices(instance);

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_down01", "tv", "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv"), ct);

        Assert.Equal(ArrRepairResult.Deferred, outcome.Result);
        Assert.Null(outcome.Instance);
        var call = Assert.Single(outcome.Calls);
        Assert.Equal(("GET", null, "connection refused", false), (call.Method, call.Status, call.Error, call.DryRun));
        Assert.Contains("connection refused", outcome.Reason, StringComparison.Ordinal);
        Assert.Contains("tried again later", outcome.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("timeout")]
    [InlineData("401")]
    [InlineData("500")]
    public async Task An_instance_that_times_out_refuses_the_key_or_fails_defers_and_is_never_taken_for_not_the_owner(string fault)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        sonarr.SeedImportedDownload("SABnzbd_nzo_fault1", "Show.S01E01.1080p-GRP", "Show.S01E01.mkv");
        // The shortest timeout an instance may have (ArrFields: 1 s), so the fault case stays quick.
        var instance = sonarr.Instance("sonarr") with { Timeout = TimeSpan.FromSeconds(1) };
        switch (fault)
        {
            case "timeout":
                sonarr.DelayOn("/api/v3/history", TimeSpan.FromSeconds(5));
                break;
            case "401":
                instance = instance with { ApiKey = "not-the-key" };
                break;
            default:
                sonarr.FailOn("GET", "/api/v3/history", 503);
                break;
        }

        using var arr = new ArrTestServices(instance, radarr.Instance("radarr"));
        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_fault1", "tv", "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv"), ct);

        // The Radarr answered "not mine"; the Sonarr could not say: that is a retry, not "not found".
        Assert.Equal(ArrRepairResult.Deferred, outcome.Result);
        Assert.All(outcome.Calls, static c => Assert.Equal("GET", c.Method));
        Assert.Empty(sonarr.Writes);
        Assert.Empty(radarr.Writes);
        var expected = fault switch { "timeout" => "no answer within 1 s", "401" => "API key was refused", _ => "503" };
        Assert.Contains(expected, outcome.Reason, StringComparison.Ordinal);
        Assert.DoesNotContain("not-the-key", outcome.Reason, StringComparison.Ordinal);
        Assert.DoesNotContain(arr.Log, l => l.Contains(sonarr.ApiKey, StringComparison.Ordinal) || l.Contains("not-the-key", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_failed_mark_stops_the_repair_before_any_delete_or_search()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var download = sonarr.SeedImportedDownload("SABnzbd_nzo_fail01", "Show.S01E01.1080p-GRP", "Show.S01E01.mkv");
        sonarr.FailOn("POST", "/api/v3/history/failed/");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_fail01", "tv", "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv"), ct);

        Assert.Equal(ArrRepairResult.Deferred, outcome.Result);
        Assert.Equal("sonarr", outcome.Instance);
        Assert.Equal([("POST", $"/api/v3/history/failed/{download.GrabIds[0]}", 500)], sonarr.Writes.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
        Assert.Equal(3, sonarr.Calls.Count);
        Assert.Contains($"(POST /api/v3/history/failed/{download.GrabIds[0]}) answered 500 (Internal Server Error: Injected failure)", outcome.Reason, StringComparison.Ordinal);
        Assert.True(sonarr.HasFile(download.FileIds[0]));
        Assert.Empty(sonarr.Commands);
    }

    [Fact]
    public async Task A_failed_delete_stops_the_repair_before_the_search()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var download = sonarr.SeedImportedDownload("SABnzbd_nzo_fail02", "Show.S01E01.1080p-GRP", "Show.S01E01.mkv");
        sonarr.FailOn("DELETE", "/api/v3/episodefile/", 500);
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_fail02", "tv", "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv"), ct);

        Assert.Equal(ArrRepairResult.Deferred, outcome.Result);
        Assert.Equal(["POST", "DELETE"], sonarr.Writes.Select(static c => c.Method));
        Assert.Empty(sonarr.Commands);
        Assert.Contains($"deleting episode file {download.FileIds[0]}", outcome.Reason, StringComparison.Ordinal);
        Assert.Contains("no search was started", outcome.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_download_still_in_the_queue_is_removed_with_blocklisting_then_searched()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var queued = sonarr.SeedQueuedDownload("SABnzbd_nzo_queue1", "Show.S01E05.1080p-GRP");
        sonarr.SeedQueuedDownload("SABnzbd_nzo_other1", "Other.S01E01.1080p-GRP");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_queue1", "tv", "/content/tv/Show.S01E05.1080p-GRP/Show.S01E05.mkv"), ct);

        Assert.Equal(ArrRepairResult.Repaired, outcome.Result);
        var removal = Assert.Single(sonarr.QueueRemovals);
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_queue1&page=1&pageSize=100", 200),
            ("GET", "/api/v3/config/downloadclient", 200),
            ("GET", "/api/v3/queue?page=1&pageSize=100", 200),
            ("DELETE", $"/api/v3/queue/{removal.QueueId}?removeFromClient=false&blocklist=true", 200),
            ("POST", "/api/v3/command", 201),
        ], sonarr.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
        AssertSameCalls(sonarr, outcome);
        // Blocklisted by the removal itself (marked failed once), kept here (not removed from the client), searched.
        Assert.Equal(("SABnzbd_nzo_queue1", false, true), (removal.DownloadId, removal.RemoveFromClient, removal.Blocklist));
        Assert.Single(sonarr.Blocklist);
        Assert.False(sonarr.IsQueued("SABnzbd_nzo_queue1"));
        Assert.True(sonarr.IsQueued("SABnzbd_nzo_other1"));
        Assert.Equal(queued.ItemIds, Assert.Single(sonarr.Commands).Ids);
    }

    [Fact]
    public async Task A_replacement_of_a_movie_repaired_inside_the_window_is_left_for_the_user_so_repairs_cannot_loop()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        var first = radarr.SeedImportedDownload("SABnzbd_nzo_film01", "Film.2024.1080p-GRP", "Film.2024.1080p-GRP.mkv");
        using var arr = new ArrTestServices(radarr.Instance("radarr"));
        var repaired = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_film01", "movies", "/content/movies/Film.2024.1080p-GRP/Film.2024.1080p-GRP.mkv"), ct);
        Assert.Equal(ArrRepairResult.Repaired, repaired.Result);
        Assert.Equal(first.ItemIds, repaired.Replaced);

        // Radarr's search grabbed and imported another release of the same movie, which went bad too.
        var movie = first.ItemIds[0];
        var replacement = radarr.SeedReplacement("SABnzbd_nzo_film02", "Film.2024.REPACK.1080p-OTHER", movie, "Film.mkv");
        var before = radarr.Calls.Count;
        var recent = new ArrRecentRepair("radarr", movie, new DateTime(2026, 11, 20, 8, 0, 0, DateTimeKind.Utc), "Film.2024.1080p-GRP");
        var again = Request("SABnzbd_nzo_film02", "movies", "/content/movies/Film.2024.REPACK.1080p-OTHER/Film.mkv") with { RecentRepairs = [recent] };

        var outcome = await arr.Repair.RepairAsync(again, ct);

        Assert.Equal(ArrRepairResult.RecentlyRepaired, outcome.Result);
        Assert.Equal([("GET", "/api/v3/history?downloadId=SABnzbd_nzo_film02&page=1&pageSize=100")],
            radarr.Calls.Skip(before).Select(static c => (c.Method, c.PathAndQuery)));
        Assert.True(radarr.HasFile(replacement));
        Assert.Single(radarr.Blocklist);
        Assert.Contains("2026-11-20 08:00:00Z", outcome.Reason, StringComparison.Ordinal);
        Assert.Contains("Film.2024.REPACK.1080p-OTHER", outcome.Reason, StringComparison.Ordinal);

        // The user's Repair now carries no window: the replacement is replaced.
        var asked = await arr.Repair.RepairAsync(again with { RecentRepairs = null }, ct);
        Assert.Equal(ArrRepairResult.Repaired, asked.Result);
        Assert.False(radarr.HasFile(replacement));
        Assert.Equal(2, radarr.Blocklist.Count);
    }

    [Fact]
    public async Task A_download_no_history_names_is_not_found_and_nothing_is_written()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        sonarr.SeedImportedDownload("SABnzbd_nzo_someone", "Show.S01E01.1080p-GRP", "Show.S01E01.mkv");
        radarr.SeedImportedDownload("SABnzbd_nzo_else", "Movie.2024.1080p-GRP", "Movie.2024.1080p-GRP.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"), radarr.Instance("radarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_nobody", "tv", "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv"), ct);

        Assert.Equal(ArrRepairResult.NotFound, outcome.Result);
        Assert.Null(outcome.Instance);
        Assert.Equal(["/api/v3/history?downloadId=SABnzbd_nzo_nobody&page=1&pageSize=100"], sonarr.Calls.Select(static c => c.PathAndQuery));
        Assert.Equal(["/api/v3/history?downloadId=SABnzbd_nzo_nobody&page=1&pageSize=100"], radarr.Calls.Select(static c => c.PathAndQuery));
        Assert.Contains("nothing was changed", outcome.Reason, StringComparison.Ordinal);
        Assert.Empty(sonarr.Blocklist);
        Assert.Empty(radarr.Blocklist);
    }

    [Fact]
    public async Task Only_the_instances_that_send_the_category_are_asked_unless_none_does()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        sonarr.SeedImportedDownload("SABnzbd_nzo_cat001", "Show.S01E01.1080p-GRP", "Show.S01E01.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr", "tv"), radarr.Instance("radarr", "movies"));

        var tv = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_cat001", "tv", "/content/tv/Show.S01E01.1080p-GRP/Show.S01E01.mkv"), ct);
        Assert.Equal(ArrRepairResult.Repaired, tv.Result);
        Assert.Empty(radarr.Calls);

        // A category neither lists: both are asked (reads only), and neither grabbed it.
        var anime = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_cat002", "anime", "/content/anime/X/x.mkv"), ct);
        Assert.Equal(ArrRepairResult.NotFound, anime.Result);
        Assert.Equal(["sonarr", "radarr"], anime.Calls.Select(static c => c.Instance));
        Assert.Single(radarr.Calls);
    }

    [Fact]
    public async Task A_dry_run_reads_but_only_lists_the_writes_it_would_make()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var pack = sonarr.SeedImportedDownload("SABnzbd_nzo_dry001", "Show.S01.1080p.WEB-GRP", "Show.S01E01.mkv", "Show.S01E02.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_dry001", "tv", "/content/tv/Show.S01.1080p.WEB-GRP/Show.S01E01.mkv") with { DryRun = true }, ct);

        Assert.Equal(ArrRepairResult.DryRun, outcome.Result);
        Assert.Equal("sonarr", outcome.Instance);
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_dry001&page=1&pageSize=100", (int?)200, false),
            ("GET", "/api/v3/config/downloadclient", 200, false),
            ("POST", $"/api/v3/history/failed/{pack.GrabIds[0]}", null, true),
            ("GET", $"/api/v3/episode/{pack.ItemIds[0]}", 200, false),
            ("DELETE", $"/api/v3/episodefile/{pack.FileIds[0]}", null, true),
            ("POST", "/api/v3/command", null, true),
        ], outcome.Calls.Select(static c => (c.Method, c.Path, c.Status, c.DryRun)));
        Assert.Empty(sonarr.Writes);
        Assert.Empty(sonarr.Blocklist);
        Assert.True(sonarr.HasFile(pack.FileIds[0]));
        Assert.StartsWith("Dry run:", outcome.Reason, StringComparison.Ordinal);
        Assert.Contains(arr.Log, l => l.StartsWith("Information", StringComparison.Ordinal) && l.Contains("would call sonarr DELETE", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_radarr_configured_as_a_sonarr_is_told_apart_before_anything_is_written()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        radarr.SeedImportedDownload("SABnzbd_nzo_kind01", "Movie.2024.1080p-GRP", "Movie.2024.1080p-GRP.mkv");
        using var arr = new ArrTestServices(radarr.Instance("movies-box") with { Kind = ArrKind.Sonarr });

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_kind01", "movies", "/content/movies/Movie.2024.1080p-GRP/Movie.2024.1080p-GRP.mkv"), ct);

        Assert.Equal(ArrRepairResult.Deferred, outcome.Result);
        Assert.Contains("configured as a Sonarr", outcome.Reason, StringComparison.Ordinal);
        Assert.Empty(radarr.Writes);
    }

    [Fact]
    public async Task A_pack_whose_imports_do_not_name_the_broken_file_is_left_alone()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        sonarr.SeedImportedDownload("SABnzbd_nzo_name01", "Show.S01.1080p.WEB-GRP", "Show.S01E01.mkv", "Show.S01E02.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_name01", "tv", "/content/tv/Show.S01.1080p.WEB-GRP/sample.mkv"), ct);

        Assert.Equal(ArrRepairResult.NotFound, outcome.Result);
        Assert.Equal("sonarr", outcome.Instance);
        Assert.Contains("none of them named 'sample.mkv'", outcome.Reason, StringComparison.Ordinal);
        Assert.Empty(sonarr.Writes);
    }

    [Fact]
    public async Task Imports_that_name_no_file_replace_every_item_of_the_download_and_say_so()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var series = sonarr.AddSeries("Show");
        var e1 = sonarr.AddEpisode(series, 1, 1);
        var e2 = sonarr.AddEpisode(series, 1, 2);
        var f1 = sonarr.AddEpisodeFile(series, "Season 01/Show - S01E01.mkv", e1);
        var f2 = sonarr.AddEpisodeFile(series, "Season 01/Show - S01E02.mkv", e2);
        var grabs = sonarr.AddGrab("SABnzbd_nzo_nopath", "Show.S01.1080p-GRP", e1, e2);
        sonarr.AddImport("SABnzbd_nzo_nopath", e1, droppedPath: "", importedPath: "");
        sonarr.AddImport("SABnzbd_nzo_nopath", e2, droppedPath: "", importedPath: "");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_nopath", "tv", "/content/tv/Show.S01.1080p-GRP/Show.S01E02.mkv"), ct);

        Assert.Equal(ArrRepairResult.Repaired, outcome.Result);
        Assert.Contains("every episode imported from the download is replaced", outcome.Reason, StringComparison.Ordinal);
        Assert.Equal(
            ["POST /api/v3/history/failed/" + grabs[0], "DELETE /api/v3/episodefile/" + f1, "DELETE /api/v3/episodefile/" + f2, "POST /api/v3/command"],
            sonarr.Writes.Select(static c => c.Method + " " + c.PathAndQuery));
        Assert.Equal([e1, e2], Assert.Single(sonarr.Commands).Ids);
    }

    [Fact]
    public async Task Without_instances_the_download_is_not_found_and_the_reason_says_where_to_add_them()
    {
        var ct = TestContext.Current.CancellationToken;
        using var arr = new ArrTestServices();

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_none01", "tv", "/content/tv/X/x.mkv"), ct);

        Assert.Equal(ArrRepairResult.NotFound, outcome.Result);
        Assert.Null(outcome.Instance);
        Assert.Empty(outcome.Calls);
        Assert.Contains("Settings", outcome.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task With_redownload_failed_on_the_file_goes_first_and_sonarr_searches_by_itself_never_twice()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        sonarr.AutoRedownloadFailed = true;
        var pack = sonarr.SeedImportedDownload("SABnzbd_nzo_auto01", "Show.S03.1080p.WEB-GRP", "Show.S03E01.mkv", "Show.S03E02.mkv", "Show.S03E03.mkv");
        using var arr = new ArrTestServices(sonarr.Instance("sonarr", "tv"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_auto01", "tv", "/content/tv/Show.S03.1080p.WEB-GRP/Show.S03E02.mkv"), ct);

        Assert.Equal((ArrRepairResult.Repaired, ArrSearch.Arr), (outcome.Result, outcome.Search));
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_auto01&page=1&pageSize=100", 200),
            ("GET", "/api/v3/config/downloadclient", 200),
            ("GET", $"/api/v3/episode/{pack.ItemIds[1]}", 200),
            ("DELETE", $"/api/v3/episodefile/{pack.FileIds[1]}", 200),
            ("POST", $"/api/v3/history/failed/{pack.GrabIds[0]}", 200),
        ], sonarr.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
        AssertSameCalls(sonarr, outcome);
        // One search, Sonarr's own, and E02 had no file by then: it is what that search grabs.
        Assert.Empty(sonarr.Commands);
        var search = Assert.Single(sonarr.AutoSearches);
        Assert.Equal(pack.ItemIds, search.Ids);
        Assert.Equal([pack.ItemIds[0], pack.ItemIds[2]], search.HadFile);
        Assert.Single(sonarr.Blocklist);
        Assert.Contains("left the search to Sonarr 'sonarr' (its Redownload Failed is on", outcome.Reason, StringComparison.Ordinal);
        Assert.Equal([pack.ItemIds[1]], outcome.Replaced);
    }

    [Fact]
    public async Task With_redownload_failed_on_a_queued_movie_is_removed_with_blocklisting_and_radarr_searches_by_itself()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        radarr.AutoRedownloadFailed = true;
        var queued = radarr.SeedQueuedDownload("SABnzbd_nzo_autoq1", "Movie.2025.1080p-GRP");
        using var arr = new ArrTestServices(radarr.Instance("radarr", "movies"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_autoq1", "movies", "/content/movies/Movie.2025.1080p-GRP/Movie.2025.mkv"), ct);

        Assert.Equal((ArrRepairResult.Repaired, ArrSearch.Arr), (outcome.Result, outcome.Search));
        var removal = Assert.Single(radarr.QueueRemovals);
        Assert.Equal(
        [
            ("GET", "/api/v3/history?downloadId=SABnzbd_nzo_autoq1&page=1&pageSize=100", 200),
            ("GET", "/api/v3/config/downloadclient", 200),
            ("GET", "/api/v3/queue?page=1&pageSize=100", 200),
            ("DELETE", $"/api/v3/queue/{removal.QueueId}?removeFromClient=false&blocklist=true", 200),
        ], radarr.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
        Assert.Empty(radarr.Commands);
        Assert.Equal(queued.ItemIds, Assert.Single(radarr.AutoSearches).Ids);
        Assert.Contains("left the search to Radarr 'radarr'", outcome.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task When_the_redownload_setting_cannot_be_read_nzbdav_searches_and_says_why()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        var download = sonarr.SeedImportedDownload("SABnzbd_nzo_noconf", "Show.S01E07.1080p-GRP", "Show.S01E07.mkv");
        sonarr.FailOn("GET", "/api/v3/config/", 500);
        using var arr = new ArrTestServices(sonarr.Instance("sonarr"));

        var outcome = await arr.Repair.RepairAsync(Request("SABnzbd_nzo_noconf", "tv", "/content/tv/Show.S01E07.1080p-GRP/Show.S01E07.mkv"), ct);

        Assert.Equal((ArrRepairResult.Repaired, ArrSearch.NzbDav), (outcome.Result, outcome.Search));
        Assert.Equal(["POST", "DELETE", "POST"], sonarr.Writes.Select(static c => c.Method));
        Assert.Equal(download.ItemIds, Assert.Single(sonarr.Commands).Ids);
        Assert.Contains("its Redownload Failed setting could not be read (GET /api/v3/config/downloadclient) answered 500", outcome.Reason, StringComparison.Ordinal);
    }

    private static ArrRepairRequest Request(string nzoId, string category, string filePath) =>
        new(nzoId, filePath.Split('/')[^2], category, filePath, DryRun: false);

    /// <summary>What the repair says it called is what the fake answered, one for one.</summary>
    private static void AssertSameCalls(FakeArrServer server, ArrRepairOutcome outcome) =>
        Assert.Equal(
            server.Calls.Select(static c => (c.Method, c.PathAndQuery, (int?)c.Status)),
            outcome.Calls.Select(static c => (c.Method, c.Path, c.Status)));
}
