using System.Net;
using System.Text.Json;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>The Logs page's API over a real socket: the server's own log lines, filtered by level and text, tailed with <c>after</c>, downloadable.</summary>
public sealed class UiLogsTests
{
    private const string Password = "correct horse battery";

    [Fact]
    public async Task The_log_is_read_filtered_tailed_and_downloaded_by_a_logged_in_user_only()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);

        using (var anonymous = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/logs"), ct))
            Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        await ui.LoginAsync("admin", Password, ct);

        // The start-up warning about the generated WebDAV password is there, with its level and source.
        var all = await GetAsync(ui, "/ui/api/logs", ct);
        var warning = Assert.Single(all.GetProperty("entries").EnumerateArray(), e => e.GetProperty("message").GetString()!.Contains("Generated the WebDAV password", StringComparison.Ordinal));
        Assert.Equal("Warning", warning.GetProperty("level").GetString());
        Assert.Equal("NzbDav.Server.Auth.WebDavCredentialInitializer", warning.GetProperty("source").GetString());
        var last = all.GetProperty("last").GetInt64();

        // A new line: a request the server logs; asking after the last one returns just the new lines.
        using (var probe = await server.Http.GetAsync("/no-such-folder-for-the-log-test/", ct))
            Assert.Equal(HttpStatusCode.Unauthorized, probe.StatusCode);
        var tail = await GetAsync(ui, $"/ui/api/logs?after={last}&search=no-such-folder-for-the-log-test", ct);
        var line = Assert.Single(tail.GetProperty("entries").EnumerateArray());
        Assert.True(line.GetProperty("sequence").GetInt64() > last);
        Assert.Contains("GET /no-such-folder-for-the-log-test/ responded 401", line.GetProperty("message").GetString(), StringComparison.Ordinal);

        // Level is a minimum: Warning keeps the warning and drops the request line.
        var warnings = await GetAsync(ui, "/ui/api/logs?level=warning", ct);
        Assert.All(warnings.GetProperty("entries").EnumerateArray(), e => Assert.Contains(e.GetProperty("level").GetString(), new[] { "Warning", "Error", "Fatal" }));
        Assert.Contains(warnings.GetProperty("entries").EnumerateArray(), e => e.GetProperty("sequence").GetInt64() == warning.GetProperty("sequence").GetInt64());

        using (var bad = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/logs?level=loud"), ct))
        {
            Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
            Assert.Contains("is not a log level", (await UiClient.ReadAsync(bad, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
        }

        using var download = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/logs/download?search=no-such-folder-for-the-log-test"), ct);
        Assert.Equal(HttpStatusCode.OK, download.StatusCode);
        Assert.Equal("nzbdav-log.txt", download.Content.Headers.ContentDisposition?.FileNameStar ?? download.Content.Headers.ContentDisposition?.FileName);
        var text = await download.Content.ReadAsStringAsync(ct);
        Assert.Contains("[Information] Serilog.AspNetCore.RequestLoggingMiddleware: HTTP GET /no-such-folder-for-the-log-test/ responded 401", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Generated the WebDAV password", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_uis_own_reads_are_not_logged_at_information_while_page_loads_changes_and_refusals_are()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);
        var before = (await GetAsync(ui, "/ui/api/logs", ct)).GetProperty("last").GetInt64();

        // What an open dashboard, queue and Logs page do for minutes: poll.
        for (var i = 0; i < 5; i++)
        {
            foreach (var path in new[] { "/ui/api/queue", "/ui/api/logs?after=1", "/ui/api/session", "/ui/api/history" })
                await GetAsync(ui, path, ct);
        }
        // A page load, a change and a refusal.
        using (var page = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/queue"), ct))
            Assert.True(page.IsSuccessStatusCode || page.StatusCode == HttpStatusCode.NotFound, page.StatusCode.ToString());
        using (var pause = await ui.PostAsync("/ui/api/queue/pause", new { }, ct))
            Assert.Equal(HttpStatusCode.OK, pause.StatusCode);
        using (var refused = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/jobs/no-such-job/nzb"), ct))
            Assert.Equal(HttpStatusCode.NotFound, refused.StatusCode);

        var requests = (await GetAsync(ui, $"/ui/api/logs?after={before}&level=information&source=RequestLoggingMiddleware", ct)).GetProperty("entries")
            .EnumerateArray().Select(e => e.GetProperty("message").GetString()!).ToList();
        Assert.DoesNotContain(requests, m => m.Contains("GET /ui/api/queue", StringComparison.Ordinal) || m.Contains("GET /ui/api/logs", StringComparison.Ordinal)
            || m.Contains("GET /ui/api/session", StringComparison.Ordinal) || m.Contains("GET /ui/api/history", StringComparison.Ordinal));
        Assert.Contains(requests, m => m.Contains("GET /ui/queue responded", StringComparison.Ordinal));
        Assert.Contains(requests, m => m.Contains("POST /ui/api/queue/pause responded 200", StringComparison.Ordinal));
        Assert.Contains(requests, m => m.Contains("GET /ui/api/jobs/no-such-job/nzb responded 404", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Start_up_warnings_stay_pinned_until_dismissed_and_the_log_filters_by_source()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);

        var logs = await GetAsync(ui, "/ui/api/logs?limit=1", ct);
        var pinned = logs.GetProperty("startup").EnumerateArray().ToList();
        var password = Assert.Single(pinned, e => e.GetProperty("message").GetString()!.Contains("Generated the WebDAV password", StringComparison.Ordinal));
        Assert.All(pinned, e => Assert.Contains(e.GetProperty("level").GetString(), new[] { "Warning", "Error", "Fatal" }));
        // Pinned even when the page asks for fewer lines than the start-up wrote.
        Assert.Single(logs.GetProperty("entries").EnumerateArray());

        // The source filter keeps one component's lines.
        var fromCredentials = await GetAsync(ui, "/ui/api/logs?source=WebDavCredentialInitializer", ct);
        Assert.NotEmpty(fromCredentials.GetProperty("entries").EnumerateArray());
        Assert.All(fromCredentials.GetProperty("entries").EnumerateArray(), e => Assert.Equal("NzbDav.Server.Auth.WebDavCredentialInitializer", e.GetProperty("source").GetString()));

        // Dismissed: no longer pinned, still in the log.
        var newest = pinned.Max(e => e.GetProperty("sequence").GetInt64());
        using (var bad = await ui.PostAsync("/ui/api/logs/startup/dismiss", new { }, ct))
            Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        using (var dismissed = await ui.PostAsync("/ui/api/logs/startup/dismiss", new { through = newest }, ct))
        {
            Assert.Equal(HttpStatusCode.OK, dismissed.StatusCode);
            Assert.Empty((await UiClient.ReadAsync(dismissed, ct)).GetProperty("startup").EnumerateArray());
        }
        var after = await GetAsync(ui, "/ui/api/logs", ct);
        Assert.Empty(after.GetProperty("startup").EnumerateArray());
        Assert.Contains(after.GetProperty("entries").EnumerateArray(), e => e.GetProperty("sequence").GetInt64() == password.GetProperty("sequence").GetInt64());
    }

    private static async Task<JsonElement> GetAsync(UiClient ui, string path, CancellationToken cancellationToken)
    {
        using var response = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, path), cancellationToken);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await UiClient.ReadAsync(response, cancellationToken);
    }
}
