using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.RegularExpressions;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// The web UI served by the host under /ui/, over a real socket: a browser at the root is sent there,
/// WebDAV clients are not, the shell and its hashed assets come with the right cache headers and a
/// Content-Security-Policy, and without a built UI the page says how to get one.
/// </summary>
public sealed partial class WebUiServingTests
{
    private const string User = "admin";
    private const string Password = "ui-test-password";

    [Fact]
    public async Task A_browser_opening_the_root_is_sent_to_the_ui_and_webdav_clients_are_not()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await StartAsync(data.Path, ct);
        using var http = NoRedirects(server);

        using (var browser = new HttpRequestMessage(HttpMethod.Get, "/"))
        {
            browser.Headers.Accept.ParseAdd("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
            using var response = await http.SendAsync(browser, ct);
            Assert.Equal(HttpStatusCode.Redirect, response.StatusCode);
            Assert.Equal("/ui/", response.Headers.Location?.OriginalString);
        }

        // curl, rclone and the *arr apps do not ask for HTML: the WebDAV root still wants its password.
        using (var response = await http.GetAsync("/", ct))
            Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);

        // A DAV request that happens to accept HTML is still a DAV request.
        using (var propfind = new HttpRequestMessage(new HttpMethod("PROPFIND"), "/"))
        {
            propfind.Headers.Accept.ParseAdd("text/html");
            propfind.Headers.Add("Depth", "1");
            propfind.Headers.Authorization = Basic();
            using var response = await http.SendAsync(propfind, ct);
            Assert.Equal(207, (int)response.StatusCode);
            Assert.Contains("/content/", await response.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task The_shell_and_its_assets_are_served_with_cache_headers_and_a_content_security_policy()
    {
        var ct = TestContext.Current.CancellationToken;
        Assert.True(File.Exists(Path.Combine(AppContext.BaseDirectory, "ui", "index.html")),
            "The web UI was not built into the test's output: the build needs Node.js >= 20.19 (tools/test.sh builds with -p:NzbDavRequireUi=true).");
        using var data = new TempDirectory();
        await using var server = await StartAsync(data.Path, ct);
        using var http = NoRedirects(server);

        using (var bare = await http.GetAsync("/ui", ct))
        {
            Assert.Equal(HttpStatusCode.Redirect, bare.StatusCode);
            Assert.Equal("/ui/", bare.Headers.Location?.OriginalString);
        }

        string shell;
        using (var response = await http.GetAsync("/ui/", ct))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
            Assert.True(response.Headers.CacheControl?.NoCache, "the shell must be revalidated, so a new build is picked up");
            var policy = Assert.Single(response.Headers.GetValues("Content-Security-Policy"));
            Assert.Contains("script-src 'self'", policy, StringComparison.Ordinal);
            Assert.DoesNotContain("unsafe-inline", policy, StringComparison.Ordinal);
            Assert.Equal("nosniff", Assert.Single(response.Headers.GetValues("X-Content-Type-Options")));
            shell = await response.Content.ReadAsStringAsync(ct);
        }

        // No inline script: every <script> names its source.
        Assert.DoesNotMatch(InlineScript(), shell);
        var script = ScriptSource().Match(shell);
        Assert.True(script.Success, "the shell loads its script from /ui/assets/");
        using (var asset = await http.GetAsync(script.Groups["src"].Value, ct))
        {
            Assert.Equal(HttpStatusCode.OK, asset.StatusCode);
            Assert.Equal("text/javascript", asset.Content.Headers.ContentType?.MediaType);
            Assert.Equal(TimeSpan.FromDays(365), asset.Headers.CacheControl?.MaxAge);
            Assert.Contains("immutable", asset.Headers.CacheControl?.ToString(), StringComparison.Ordinal);
            var bytes = await asset.Content.ReadAsByteArrayAsync(ct);
            Assert.Equal(await File.ReadAllBytesAsync(Path.Combine(AppContext.BaseDirectory, "ui", script.Groups["src"].Value["/ui/".Length..]), ct), bytes);
        }

        // The UI's own routes load the shell; the browser app decides what to show.
        using (var route = await http.GetAsync("/ui/queue", ct))
        {
            Assert.Equal(HttpStatusCode.OK, route.StatusCode);
            Assert.Equal(shell, await route.Content.ReadAsStringAsync(ct));
        }

        // A file the build did not make is not the app, and nothing outside the UI's folder is reachable.
        foreach (var path in new[] { "/ui/assets/missing-0000.js", "/ui/assets/..%2f..%2fappsettings.json", "/ui/..%2fNzbDav.Server.dll" })
        {
            using var missing = await http.GetAsync(path, ct);
            Assert.NotEqual(HttpStatusCode.OK, missing.StatusCode);
            Assert.DoesNotContain("ConnectionStrings", await missing.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Without_a_built_ui_the_page_says_how_to_get_it_and_webdav_still_works()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        using var empty = new TempDirectory();
        await using var server = await StartAsync(data.Path, ct, "--NzbDav:Ui:Directory=" + empty.Path);
        using var http = NoRedirects(server);

        using (var response = await http.GetAsync("/ui/", ct))
        {
            Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
            Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
            var page = await response.Content.ReadAsStringAsync(ct);
            Assert.Contains("The web UI is not built", page, StringComparison.Ordinal);
            Assert.Contains("Node.js 20.19", page, StringComparison.Ordinal);
        }

        using var propfind = new HttpRequestMessage(new HttpMethod("PROPFIND"), "/content/");
        propfind.Headers.Add("Depth", "1");
        propfind.Headers.Authorization = Basic();
        using var dav = await http.SendAsync(propfind, ct);
        Assert.Equal(207, (int)dav.StatusCode);
    }

    private static Task<TestServer> StartAsync(string dataDirectory, CancellationToken cancellationToken, params string[] extra) =>
        TestServer.StartAsync(dataDirectory, null, holdQueue: true, cancellationToken,
            ["--NzbDav:WebDav:User=" + User, "--NzbDav:WebDav:Password=" + Password, .. extra]);

    private static HttpClient NoRedirects(TestServer server) =>
        new(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = server.Http.BaseAddress };

    private static AuthenticationHeaderValue Basic() =>
        new("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(User + ":" + Password)));

    [GeneratedRegex("<script(?![^>]*\\bsrc=)[^>]*>", RegexOptions.IgnoreCase)]
    private static partial Regex InlineScript();

    [GeneratedRegex("<script[^>]*\\bsrc=\"(?<src>/ui/assets/[^\"]+\\.js)\"", RegexOptions.IgnoreCase)]
    private static partial Regex ScriptSource();
}
