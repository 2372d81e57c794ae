using System.Text.Json;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Routing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.Server.Auth;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;

namespace NzbDav.Server.Tests.Auth;

public sealed class AuthTests
{
    private static readonly string[] AllMethods =
        ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "PATCH"];

    private static readonly string[] CatchAllSamples =
        ["/", "/nzbs/", "/nzbs/tv/x.nzb", "/content/", "/content/tv/Show/e1.mkv", "/completed/tv/Show/", "/.ids/", "/healthz", "/api/x", "/apis", "/anything", "/uix", "/ui.txt"];

    // What anyone may call before logging in: who is logged in, setup with the logged code, login, logout, and a 404 for unknown calls.
    private static readonly string[] UiAnonymousRoutes = ["/ui/api/session", "/ui/api/setup", "/ui/api/login", "/ui/api/logout", "/ui/api/{**rest}"];

    private static readonly string[] UiSamples = ["/ui", "/ui/", "/ui/queue", "/ui/assets/missing.js"];

    [Fact]
    public async Task Every_endpoint_and_method_refuses_unauthenticated_requests()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);
        await server.SeedCompletedJobAsync("tv", "Show", [("e1.mkv", 100)], ct);
        var endpoints = server.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>().ToList();
        // /health, /ready, /api, /metrics, the web UI's files, the UI API (39 routes) and the tree's catch-all.
        Assert.Equal(53, endpoints.Count);
        Assert.Contains(endpoints, e => e.RoutePattern.RawText == "/metrics");

        var exempt = new List<string>();
        var checkedRequests = 0;
        foreach (var endpoint in endpoints)
        {
            var methods = endpoint.Metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods ?? AllMethods;
            var raw = endpoint.RoutePattern.RawText!;
            var paths = raw.StartsWith("/ui/api/", StringComparison.Ordinal) ? [raw.Replace("{**rest}", "no-such-call", StringComparison.Ordinal)]
                : raw.StartsWith("/ui/", StringComparison.Ordinal) ? UiSamples
                : raw.Contains("**") ? CatchAllSamples : [raw];
            foreach (var method in methods)
            {
                foreach (var path in paths)
                {
                    using var response = await DavHttp.SendAsync(server.Anonymous, method, path, ct);
                    checkedRequests++;
                    if (endpoint.Metadata.GetMetadata<BasicAuthExemption>() is not null)
                    {
                        exempt.Add(method + " " + raw);
                        if (raw == "/api")
                        {
                            // SAB clients authenticate with the API key; without one the API says so.
                            var body = JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement;
                            Assert.False(body.GetProperty("status").GetBoolean());
                            Assert.Equal("API Key Required", body.GetProperty("error").GetString());
                        }
                        else if (raw.StartsWith("/ui/api/", StringComparison.Ordinal))
                        {
                            // The UI API has its own login instead of Basic: a call that needs a
                            // session refuses without one; only the login calls themselves do without.
                            var status = (int)response.StatusCode;
                            if (endpoint.Metadata.GetMetadata<IAuthorizeData>() is not null)
                                Assert.True(status == 401, $"{method} {path} answered {status} without a UI session");
                            else
                                Assert.Contains(raw, UiAnonymousRoutes);
                            Assert.DoesNotContain("multistatus", await response.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
                        }
                        else if (raw.StartsWith("/ui/", StringComparison.Ordinal))
                        {
                            // The UI's shell and scripts, never a listing or a file of the library.
                            Assert.DoesNotContain("multistatus", await response.Content.ReadAsStringAsync(ct), StringComparison.Ordinal);
                            Assert.Contains(response.Content.Headers.ContentType?.MediaType, new[] { "text/html", "text/javascript", "text/css", null });
                        }

                        continue;
                    }

                    Assert.True(401 == (int)response.StatusCode, $"{method} {path} answered {(int)response.StatusCode} without credentials");
                    Assert.Equal("Basic realm=\"NzbDav\"", DavHttp.RawHeader(response, "WWW-Authenticate"));
                }
            }
        }

        Assert.Equal(
            ["/api", "/health", "/ready", "/ui/api/account/password", "/ui/api/files", "/ui/api/files/raw", "/ui/api/files/test", "/ui/api/health", "/ui/api/health/files/{id}/check", "/ui/api/health/files/{id}/ignore", "/ui/api/health/files/{id}/par2", "/ui/api/health/files/{id}/repair", "/ui/api/history", "/ui/api/integrations", "/ui/api/integrations/check", "/ui/api/jobs/{id}/delete", "/ui/api/jobs/{id}/nzb", "/ui/api/jobs/{id}/pause", "/ui/api/jobs/{id}/priority", "/ui/api/jobs/{id}/resume", "/ui/api/jobs/{id}/retry", "/ui/api/live", "/ui/api/login", "/ui/api/logout", "/ui/api/logs", "/ui/api/logs/download", "/ui/api/logs/startup/dismiss", "/ui/api/openapi/{documentName}.json", "/ui/api/queue", "/ui/api/queue/pause", "/ui/api/queue/resume", "/ui/api/queue/upload", "/ui/api/queue/url", "/ui/api/session", "/ui/api/settings", "/ui/api/settings/api-key", "/ui/api/settings/arr", "/ui/api/settings/arr/test", "/ui/api/settings/arr/{name}", "/ui/api/settings/arr/{name}/delete", "/ui/api/settings/providers", "/ui/api/settings/providers/test", "/ui/api/settings/providers/{name}", "/ui/api/settings/providers/{name}/delete", "/ui/api/settings/webdav", "/ui/api/setup", "/ui/api/traffic", "/ui/api/{**rest}", "/ui/{**path}"],
            exempt.Select(e => e[(e.IndexOf(' ', StringComparison.Ordinal) + 1)..]).Distinct().Order(StringComparer.Ordinal));
        Assert.True(checkedRequests > 100);

        // Methods the named endpoints do not take fall through to the tree, which asks for credentials.
        foreach (var (method, path) in new[] { ("PROPFIND", "/api"), ("HEAD", "/health"), ("DELETE", "/api"), ("PUT", "/health"), ("POST", "/metrics"), ("HEAD", "/metrics") })
        {
            using var response = await DavHttp.SendAsync(server.Anonymous, method, path, ct);
            Assert.True(401 == (int)response.StatusCode, $"{method} {path} answered {(int)response.StatusCode} without credentials");
        }
    }

    [Theory]
    [InlineData("admin", "wrong")]
    [InlineData("root", DavTestServer.Password)]
    [InlineData("", "")]
    public async Task Wrong_credentials_get_401(string user, string password)
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await DavTestServer.StartAsync(temp.Path, ct);

        using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), "/");
        request.Headers.Authorization = DavTestServer.BasicHeader(user, password);
        request.Headers.Add("Depth", "0");
        using var response = await server.Anonymous.SendAsync(request, ct);

        Assert.Equal(401, (int)response.StatusCode);
        using var good = await DavHttp.PropfindAsync(server.Http, "/", "0", null, ct);
        Assert.Equal(207, (int)good.StatusCode);
    }

    [Fact]
    public async Task A_generated_password_is_logged_once_and_stored_only_hashed()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        string password;
        await using (var server = await DavTestServer.StartAsync(temp.Path, ct, configurePassword: false))
        {
            password = GeneratedPasswords(server).Single();
            var factory = server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>();
            await using (var context = await factory.CreateDbContextAsync(ct))
            {
                var items = await context.ConfigItems.ToListAsync(ct);
                Assert.StartsWith("pbkdf2-sha256$", items.Single(i => i.Key == "webdav.password").Value);
                Assert.DoesNotContain(items, i => i.Value.Contains(password, StringComparison.Ordinal));
            }

            using var anonymous = await DavHttp.PropfindAsync(server.Anonymous, "/", "0", null, ct);
            Assert.Equal(401, (int)anonymous.StatusCode);
            using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), "/");
            request.Headers.Authorization = DavTestServer.BasicHeader("admin", password);
            request.Headers.Add("Depth", "0");
            using var response = await server.Anonymous.SendAsync(request, ct);
            Assert.Equal(207, (int)response.StatusCode);
        }

        // Not one byte of the database files holds the password.
        foreach (var file in Directory.GetFiles(temp.Path))
            Assert.DoesNotContain(password, System.Text.Encoding.Latin1.GetString(await File.ReadAllBytesAsync(file, ct)), StringComparison.Ordinal);

        await using (var restarted = await DavTestServer.StartAsync(temp.Path, ct, configurePassword: false))
        {
            Assert.Empty(GeneratedPasswords(restarted));
            using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), "/");
            request.Headers.Authorization = DavTestServer.BasicHeader("admin", password);
            request.Headers.Add("Depth", "0");
            using var response = await restarted.Anonymous.SendAsync(request, ct);
            Assert.Equal(207, (int)response.StatusCode);
        }
    }

    private static List<string> GeneratedPasswords(DavTestServer server) =>
        [.. server.Logs.Entries
            .Where(e => e.Any(kv => kv.Key == "{OriginalFormat}" && kv.Value is string s && s.StartsWith("Generated the WebDAV password", StringComparison.Ordinal)))
            .Select(e => (string)e.Single(kv => kv.Key == "Password").Value!)];
}
