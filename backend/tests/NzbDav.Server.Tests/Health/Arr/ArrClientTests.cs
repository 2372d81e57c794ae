using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Time.Testing;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

/// <summary>
/// The v3 client against the fakes over real sockets: the connection test says plainly what is
/// wrong (key, kind, address, URL base, timeout) without the key, a network fault is an outcome and
/// not an exception, and history is read across pages.
/// </summary>
public sealed class ArrClientTests
{
    [Theory]
    [InlineData(ArrKind.Sonarr, "")]
    [InlineData(ArrKind.Radarr, "/radarr")]
    public async Task The_test_reports_the_application_and_version(ArrKind kind, string urlBase)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var fake = await FakeArrServer.StartAsync(kind, ct, urlBase: urlBase);
        using var arr = new ArrTestServices();

        var test = await arr.Client.TestAsync(fake.Instance("x"), ct);

        Assert.Equal(new ArrTestResult(true, kind.ToString(), fake.Version, null), test);
        Assert.Equal([("GET", "/api/v3/system/status", 200)], fake.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
    }

    [Fact]
    public async Task A_wrong_key_is_a_clear_401_that_never_shows_the_key()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        using var arr = new ArrTestServices();
        var instance = sonarr.Instance("x") with { ApiKey = "the-wrong-secret-key" };

        var test = await arr.Client.TestAsync(instance, ct);
        var status = await arr.Client.GetStatusAsync(instance, ct);

        Assert.False(test.Ok);
        Assert.Equal("401: the API key was refused; copy it from Sonarr → Settings → General → API Key", test.Error);
        Assert.Equal((ArrCallOutcome.Unauthorized, 401), (status.Outcome, status.Status));
        Assert.DoesNotContain("the-wrong-secret-key", test.Error, StringComparison.Ordinal);
        Assert.DoesNotContain(arr.Log, l => l.Contains("the-wrong-secret-key", StringComparison.Ordinal));
        // The fake saw no key in the URL: it goes in the header only.
        Assert.DoesNotContain(sonarr.Calls, c => c.PathAndQuery.Contains("apikey", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public async Task A_radarr_configured_as_a_sonarr_is_named_for_what_it_is()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct);
        using var arr = new ArrTestServices();

        var test = await arr.Client.TestAsync(radarr.Instance("x") with { Kind = ArrKind.Sonarr }, ct);

        Assert.False(test.Ok);
        Assert.Equal(("Radarr", radarr.Version), (test.AppName, test.Version));
        Assert.Equal($"{radarr.Url.ToString().TrimEnd('/')} is a Radarr {radarr.Version}, not a Sonarr: choose the right kind, or the Sonarr's address.", test.Error);
    }

    [Fact]
    public async Task Unreachable_wrong_url_base_and_slow_instances_are_outcomes_not_exceptions()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct, urlBase: "/sonarr");
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);
        using var arr = new ArrTestServices(clock);

        // Nothing listens there.
        var closed = sonarr.Instance("x") with { Url = $"http://127.0.0.1:{ClosedPort()}" };
        var refused = await arr.Client.TestAsync(closed, ct);
        Assert.Equal($"could not reach {closed.Url}/api/v3/system/status: connection refused", refused.Error);

        // The URL base left out: the address answers, but not with the API.
        var noBase = sonarr.Instance("x") with { Url = sonarr.Url.GetLeftPart(UriPartial.Authority) };
        var missing = await arr.Client.TestAsync(noBase, ct);
        Assert.StartsWith($"404 at {noBase.Url}/api/v3/system/status", missing.Error, StringComparison.Ordinal);

        // Slower than its timeout, which runs on the clock: an hour of it passes at once.
        sonarr.DelayOn("/api/v3/system/status", TimeSpan.FromMinutes(5));
        var asking = arr.Client.GetStatusAsync(sonarr.Instance("x") with { Timeout = TimeSpan.FromHours(1) }, ct);
        clock.Advance(TimeSpan.FromHours(1));
        var slow = await asking.WaitAsync(TimeSpan.FromSeconds(30), ct);
        Assert.Equal(ArrCallOutcome.Unreachable, slow.Outcome);
        var call = Assert.Single(slow.Calls);
        Assert.Equal(("x", "GET", "/api/v3/system/status", (int?)null, "no answer within 3600 s", false), (call.Instance, call.Method, call.Path, call.Status, call.Error, call.DryRun));
    }

    [Fact]
    public async Task A_5xx_keeps_the_gist_of_its_body()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        sonarr.FailOn("DELETE", "/api/v3/episodefile/", 500);
        using var arr = new ArrTestServices();

        var deleted = await arr.Client.DeleteFileAsync(sonarr.Instance("x"), 7, dryRun: false, ct);

        Assert.Equal(ArrCallOutcome.HttpError, deleted.Outcome);
        Assert.Equal("answered 500 (Internal Server Error: Injected failure)", deleted.Describe());
        Assert.Equal([("DELETE", "/api/v3/episodefile/7", 500)], sonarr.Calls.Select(static c => (c.Method, c.PathAndQuery, c.Status)));
    }

    [Fact]
    public async Task A_download_with_more_records_than_a_page_is_read_across_pages()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        // 60 episodes: 60 grabbed and 60 imported records, more than one page of 100.
        var pack = sonarr.SeedImportedDownload("SABnzbd_nzo_big001", "Show.S01.1080p-GRP", [.. Enumerable.Range(1, 60).Select(static i => $"Show.S01E{i:00}.mkv")]);
        sonarr.SeedImportedDownload("SABnzbd_nzo_small1", "Other.S01E01.1080p-GRP", "Other.S01E01.mkv");
        using var arr = new ArrTestServices();

        var history = await arr.Client.GetDownloadHistoryAsync(sonarr.Instance("x"), "SABnzbd_nzo_big001", ct);

        Assert.True(history.Succeeded);
        Assert.Equal(120, history.Value!.Count);
        Assert.All(history.Value, static r => Assert.Equal("SABnzbd_nzo_big001", r.DownloadId));
        Assert.Equal(pack.GrabIds.Order(), history.Value.Where(static r => r.Is(ArrHistoryRecord.Grabbed)).Select(static r => r.Id).Order());
        Assert.Equal(
            ["/api/v3/history?downloadId=SABnzbd_nzo_big001&page=1&pageSize=100", "/api/v3/history?downloadId=SABnzbd_nzo_big001&page=2&pageSize=100"],
            history.Calls.Select(static c => c.Path));
        var import = history.Value.First(static r => r.Is(ArrHistoryRecord.DownloadFolderImported));
        Assert.StartsWith("/mnt/nzbdav/completed/tv/Show.S01.1080p-GRP/Show.S01E", import.DataValue("DroppedPath"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_callers_cancellation_still_throws()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct);
        sonarr.DelayOn("/api/v3/system/status", TimeSpan.FromSeconds(5));
        using var arr = new ArrTestServices();
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(ct);
        cancel.CancelAfter(TimeSpan.FromMilliseconds(200));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => arr.Client.GetStatusAsync(sonarr.Instance("x"), cancel.Token));
    }

    private static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
