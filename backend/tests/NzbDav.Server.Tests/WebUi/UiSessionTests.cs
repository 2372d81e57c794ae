using System.Net;
using System.Text;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebDav;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// The web UI's accounts over a real socket: first-run setup only with the logged code, login and
/// logout, the session cookie's flags, anti-forgery on every change, rate-limited attempts, a
/// password change ending other sessions, and the administrator reset from the configuration.
/// </summary>
public sealed class UiSessionTests
{
    private const string StrongPassword = "correct horse battery";

    [Fact]
    public async Task The_first_account_needs_the_setup_code_the_server_logged()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        var logs = new LogCapture();
        await using var server = await StartAsync(data.Path, logs, ct);
        using var ui = new UiClient(server.Http.BaseAddress!);

        var session = await ui.SessionAsync(ct);
        Assert.True(session.GetProperty("setupRequired").GetBoolean());
        Assert.False(session.GetProperty("authenticated").GetBoolean());
        var code = Assert.Single(logs.Entries.SelectMany(e => e), v => v.Key == "SetupCode").Value as string;
        Assert.Matches("^[A-Z2-9]{5}-[A-Z2-9]{5}$", code);

        // Someone on the LAN without the code cannot take the server.
        using (var wrong = await ui.PostAsync("/ui/api/setup", new { code = "AAAAA-AAAAA", user = "admin", password = StrongPassword }, ct))
        {
            Assert.Equal(HttpStatusCode.Forbidden, wrong.StatusCode);
            Assert.Contains("setup code", (await UiClient.ReadAsync(wrong, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
        }

        using (var weak = await ui.PostAsync("/ui/api/setup", new { code, user = "admin", password = "short" }, ct))
        {
            Assert.Equal(HttpStatusCode.BadRequest, weak.StatusCode);
            Assert.Contains("8 to 256 characters", (await UiClient.ReadAsync(weak, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
        }

        // The code is typed by hand: case and the dash do not matter.
        using (var created = await ui.PostAsync("/ui/api/setup", new { code = code!.Replace("-", "", StringComparison.Ordinal).ToLowerInvariant(), user = "admin", password = StrongPassword }, ct))
        {
            Assert.Equal(HttpStatusCode.OK, created.StatusCode);
            var cookie = Assert.Single(created.Headers.GetValues("Set-Cookie"), c => c.StartsWith("nzbdav_session=", StringComparison.Ordinal)).ToLowerInvariant();
            Assert.Contains("httponly", cookie, StringComparison.Ordinal);
            Assert.Contains("samesite=strict", cookie, StringComparison.Ordinal);
            Assert.Contains("path=/ui", cookie, StringComparison.Ordinal);
            var body = ui.Remember(await UiClient.ReadAsync(created, ct));
            Assert.True(body.GetProperty("authenticated").GetBoolean());
            Assert.Equal("admin", body.GetProperty("user").GetString());
        }

        // Once made, nobody can make it again, with or without the old code.
        using var other = new UiClient(server.Http.BaseAddress!);
        Assert.False((await other.SessionAsync(ct)).GetProperty("setupRequired").GetBoolean());
        using var again = await other.PostAsync("/ui/api/setup", new { code, user = "mallory", password = StrongPassword }, ct);
        Assert.Equal(HttpStatusCode.Conflict, again.StatusCode);
        await other.LoginAsync("admin", StrongPassword, ct);
    }

    [Fact]
    public async Task Changes_need_the_anti_forgery_token_and_bodies_are_checked()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await StartAsync(data.Path, null, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + StrongPassword);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.SessionAsync(ct);

        using (var forged = await ui.PostAsync("/ui/api/login", new { user = "admin", password = StrongPassword }, ct, withToken: false))
        {
            Assert.Equal(HttpStatusCode.BadRequest, forged.StatusCode);
            Assert.Contains("X-CSRF-Token", (await UiClient.ReadAsync(forged, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
        }

        using (var request = new HttpRequestMessage(HttpMethod.Post, "/ui/api/login") { Content = new StringContent("{\"user\": \"admin\", ", Encoding.UTF8, "application/json") })
        {
            request.Headers.Add("X-CSRF-Token", ui.CsrfToken);
            using var broken = await ui.SendAsync(request, ct);
            Assert.Equal(HttpStatusCode.BadRequest, broken.StatusCode);
            Assert.StartsWith("The request body is not valid JSON", (await UiClient.ReadAsync(broken, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
        }

        using (var request = new HttpRequestMessage(HttpMethod.Post, "/ui/api/login") { Content = new StringContent("user=admin", Encoding.UTF8, "application/x-www-form-urlencoded") })
        {
            request.Headers.Add("X-CSRF-Token", ui.CsrfToken);
            using var form = await ui.SendAsync(request, ct);
            Assert.Equal(HttpStatusCode.UnsupportedMediaType, form.StatusCode);
        }

        using (var wrong = await ui.PostAsync("/ui/api/login", new { user = "admin", password = "not the password" }, ct))
        {
            Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
            Assert.Equal("Wrong user name or password.", (await UiClient.ReadAsync(wrong, ct)).GetProperty("error").GetString());
        }

        // Without a session, a call that needs one is refused.
        using (var anonymous = await ui.PostAsync("/ui/api/account/password", new { current = StrongPassword, @new = "another password" }, ct))
            Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);

        var session = await ui.LoginAsync("admin", StrongPassword, ct);
        Assert.True(session.GetProperty("authenticated").GetBoolean());
        using (var logout = await ui.PostAsync("/ui/api/logout", new { }, ct))
            Assert.Equal(HttpStatusCode.NoContent, logout.StatusCode);
        Assert.False((await ui.SessionAsync(ct)).GetProperty("authenticated").GetBoolean());
    }

    [Fact]
    public async Task Login_attempts_are_limited_per_address()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await StartAsync(data.Path, null, ct,
            "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + StrongPassword, "--NzbDav:Ui:LoginAttemptsPerMinute=3");
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.SessionAsync(ct);

        for (var attempt = 0; attempt < 3; attempt++)
        {
            using var wrong = await ui.PostAsync("/ui/api/login", new { user = "admin", password = "guess " + attempt }, ct);
            Assert.Equal(HttpStatusCode.Unauthorized, wrong.StatusCode);
        }

        // The fourth within the minute is refused before the password is even checked, the right one too.
        using var limited = await ui.PostAsync("/ui/api/login", new { user = "admin", password = StrongPassword }, ct);
        Assert.Equal(HttpStatusCode.TooManyRequests, limited.StatusCode);
        Assert.True(limited.Headers.RetryAfter?.Delta > TimeSpan.Zero);
        Assert.Contains("Too many attempts", (await UiClient.ReadAsync(limited, ct)).GetProperty("error").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_password_change_ends_every_other_session_and_a_configured_reset_ends_them_all()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        using var phone = new UiClient(new Uri("http://127.0.0.1/"));
        Uri address;
        await using (var server = await StartAsync(data.Path, null, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + StrongPassword))
        {
            address = server.Http.BaseAddress!;
            using var laptop = new UiClient(address);
            using var tablet = new UiClient(address);
            await laptop.LoginAsync("admin", StrongPassword, ct);
            await tablet.LoginAsync("admin", StrongPassword, ct);

            using (var wrong = await laptop.PostAsync("/ui/api/account/password", new { current = "nope nope nope", @new = "a new password" }, ct))
                Assert.Equal(HttpStatusCode.BadRequest, wrong.StatusCode);
            using (var changed = await laptop.PostAsync("/ui/api/account/password", new { current = StrongPassword, @new = "a new password" }, ct))
            {
                Assert.Equal(HttpStatusCode.OK, changed.StatusCode);
                laptop.Remember(await UiClient.ReadAsync(changed, ct));
            }

            // The tablet's session ended at once; the laptop's goes on under the new password.
            Assert.False((await tablet.SessionAsync(ct)).GetProperty("authenticated").GetBoolean());
            Assert.True((await laptop.SessionAsync(ct)).GetProperty("authenticated").GetBoolean());
            using (var old = await tablet.PostAsync("/ui/api/login", new { user = "admin", password = StrongPassword }, ct))
                Assert.Equal(HttpStatusCode.Unauthorized, old.StatusCode);
        }

        // Restarted with the configured admin password (the reset): the stored one differs, so it is
        // replaced and every session ends; it says so in the log.
        var logs = new LogCapture();
        await using (var server = await StartAsync(data.Path, logs, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + StrongPassword))
        {
            using var ui = new UiClient(server.Http.BaseAddress!);
            await ui.LoginAsync("admin", StrongPassword, ct);
            Assert.Contains(logs.Entries, e => e.Any(v => v.Key == "{OriginalFormat}" && v.Value is string text && text.StartsWith("The web UI's administrator was reset", StringComparison.Ordinal)));
            Assert.DoesNotContain(logs.Entries, e => e.Any(v => v.Key == "SetupCode"));
        }
    }

    private static Task<TestServer> StartAsync(string dataDirectory, ILoggerProvider? logs, CancellationToken cancellationToken, params string[] extra) =>
        TestServer.StartAsync(dataDirectory, null, holdQueue: true, logs is null ? null : services => services.AddSingleton(logs), cancellationToken, extra);
}
