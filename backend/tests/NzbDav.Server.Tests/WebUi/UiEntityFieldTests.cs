using System.Diagnostics;
using System.Net;
using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Data;
using NzbDav.MockNntp;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// Providers and Sonarr/Radarr instances as the UI edits them, from their one declaration: a bad
/// value is refused naming its field and nothing is saved, a provider an older version stored still
/// loads and keeps its password, and secrets live in the one configuration path, so a regenerated
/// API key is refused everywhere at once.
/// </summary>
public sealed class UiEntityFieldTests(UiEntityFieldTests.RefusingServer shared) : IClassFixture<UiEntityFieldTests.RefusingServer>
{
    private const string Admin = "correct horse battery";

    public static TheoryData<string, string, string> BadProviders => new()
    {
        { """{"name":"a","host":"h","port":"563"}""", "port", "Port must be a whole number between 1 and 65535." },
        { """{"name":"a","host":"h","port":0}""", "port", "Port must be between 1 and 65535; 0 is not." },
        { """{"name":"a","host":"h","port":70000}""", "port", "Port must be between 1 and 65535; 70000 is not." },
        { """{"name":"a","host":"h","maxConnections":501}""", "maxConnections", "Max connections must be between 1 and 500; 501 is not." },
        { """{"name":"a","host":"h","pipelineDepth":1.5}""", "pipelineDepth", "Pipeline depth must be a whole number between 1 and 64." },
        { """{"name":"a","host":"h","priority":-1}""", "priority", "Priority must be between 0 and 1000; -1 is not." },
        { """{"name":"a:b","host":"h"}""", "name", "Name cannot contain ':'." },
        { """{"name":"","host":"h"}""", "name", "Name is required." },
        { """{"name":"a"}""", "host", "Host is required." },
        { """{"name":"a","host":"bad host"}""", "host", "Host cannot contain spaces or tabs." },
        { """{"name":"a","host":"h/x"}""", "host", "Host is not a host name or address." },
        { """{"name":"a","host":"h","useTls":"yes"}""", "useTls", "TLS must be true or false." },
        { """{"name":"a","host":"h","role":"Tertiary"}""", "role", "Role must be Primary, BackupOnly or Block." },
        { """{"name":"a","host":"h","user":"me\nyou"}""", "user", "User cannot contain line breaks." },
        { """{"name":"a","host":"h","password":42}""", "password", "Password must be a text." },
    };

    [Theory]
    [MemberData(nameof(BadProviders))]
    public async Task Garbage_in_a_provider_field_is_refused_naming_the_field_and_nothing_is_saved(string body, string field, string error)
    {
        var ct = TestContext.Current.CancellationToken;
        var ui = shared.Ui;
        foreach (var path in (string[])["/ui/api/settings/providers", "/ui/api/settings/providers/test"])
        {
            using var response = await ui.PostAsync(path, JsonDocument.Parse(body).RootElement, ct);
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            var answer = await UiClient.ReadAsync(response, ct);
            Assert.Equal(error, answer.GetProperty("error").GetString());
            Assert.Equal(field, answer.GetProperty("field").GetString());
        }

        Assert.Empty((await ViewAsync(ui, ct)).GetProperty("providers").EnumerateArray());
        await using var db = await shared.Server.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct);
        Assert.False(await db.ConfigItems.AnyAsync(c => c.Key.StartsWith(StoredSettingsSource.KeyPrefix + "Usenet:Providers"), ct));
    }

    public static TheoryData<string, string, string> BadInstances => new()
    {
        { """{"name":"s","kind":"Lidarr","url":"http://s:1","apiKey":"k"}""", "kind", "Kind must be Sonarr or Radarr." },
        { """{"name":"s","kind":"7","url":"http://s:1","apiKey":"k"}""", "kind", "Kind must be Sonarr or Radarr." },
        { """{"name":"test","kind":"Sonarr","url":"http://s:1","apiKey":"k"}""", "name", "Name cannot be 'test' (it names the test call)." },
        { """{"name":"s","kind":"Sonarr","url":"ftp://s:1","apiKey":"k"}""", "url", "URL must be an http:// or https:// address such as http://sonarr:8989 (with its URL base, if it has one)." },
        { """{"name":"s","kind":"Sonarr","url":"http://s:1","apiKey":"k","timeoutSeconds":"15"}""", "timeoutSeconds", "Timeout (s) must be a number between 1 and 300." },
        { """{"name":"s","kind":"Sonarr","url":"http://s:1","apiKey":"k","timeoutSeconds":0.5}""", "timeoutSeconds", "Timeout (s) must be between 1 and 300; 0.5 is not." },
        { """{"name":"s","kind":"Sonarr","url":"http://s:1","apiKey":"k","categories":[1]}""", "categories", "Categories must be a list of texts." },
        { """{"name":"s","kind":"Sonarr","url":"http://s:1","apiKey":"k","categories":["tv/hd"]}""", "categories", "Categories 'tv/hd' cannot contain ':', '/' or '\\'." },
        { """{"name":"s","kind":"Sonarr","url":"http://s:1"}""", "apiKey", "API key is required." },
    };

    [Theory]
    [MemberData(nameof(BadInstances))]
    public async Task Garbage_in_a_sonarr_field_is_refused_naming_the_field_and_nothing_is_saved(string body, string field, string error)
    {
        var ct = TestContext.Current.CancellationToken;
        using var response = await shared.Ui.PostAsync("/ui/api/settings/arr", JsonDocument.Parse(body).RootElement, ct);
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var answer = await UiClient.ReadAsync(response, ct);
        Assert.Equal(error, answer.GetProperty("error").GetString());
        Assert.Equal(field, answer.GetProperty("field").GetString());
        Assert.Empty((await ViewAsync(shared.Ui, ct)).GetProperty("arr").EnumerateArray());
    }

    [Fact]
    public async Task The_provider_test_opens_its_session_as_the_pools_do_tls_policy_login_and_all_and_names_the_step_that_failed()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var nntp = new MockNntpServer(new MockNntpOptions { UseTls = true, User = "reader", Password = "secret" });
        await nntp.StartAsync(ct);
        object Request(bool untrusted, string password) => new
        {
            name = "tls", host = "127.0.0.1", port = nntp.Port, useTls = true, allowUntrustedCertificate = untrusted, user = "reader", password,
        };

        // The mock's certificate is self-signed: refused unless the provider allows it.
        var refused = await ReadOkAsync(await shared.Ui.PostAsync("/ui/api/settings/providers/test", Request(false, "secret"), ct), ct);
        Assert.False(refused.GetProperty("ok").GetBoolean());
        Assert.StartsWith("TLS failed: the server's certificate is not trusted (", refused.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.EndsWith("check the host name, or tick \"Allow untrusted certificate\" if you trust this server.", refused.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.Equal(["connect", "TLS"], refused.GetProperty("steps").EnumerateArray().Select(static s => s.GetProperty("step").GetString()));

        var passed = await ReadOkAsync(await shared.Ui.PostAsync("/ui/api/settings/providers/test", Request(true, "secret"), ct), ct);
        Assert.True(passed.GetProperty("ok").GetBoolean(), passed.ToString());
        var steps = passed.GetProperty("steps").EnumerateArray().ToList();
        Assert.Equal(["connect", "TLS", "greeting and login", "round trip", "article probe"], steps.Select(static s => s.GetProperty("step").GetString()));
        Assert.Contains("Tls", steps[1].GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal("logged in as reader", steps[2].GetProperty("detail").GetString());
        Assert.StartsWith("200", passed.GetProperty("greeting").GetString(), StringComparison.Ordinal);

        // A wrong password fails the login, after the greeting it still shows.
        var wrong = await ReadOkAsync(await shared.Ui.PostAsync("/ui/api/settings/providers/test", Request(true, "wrong"), ct), ct);
        Assert.False(wrong.GetProperty("ok").GetBoolean());
        Assert.StartsWith("greeting and login failed: ", wrong.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.Contains("refused the login", wrong.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.EndsWith("): check the user name and password.", wrong.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.StartsWith("200", wrong.GetProperty("greeting").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_usual_mistakes_are_answered_with_what_to_do_and_no_reason_is_said_twice()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var plain = new MockNntpServer(new MockNntpOptions());
        await plain.StartAsync(ct);
        object Request(int port, bool tls) => new { name = "mistake", host = "127.0.0.1", port, useTls = tls, user = "", password = "" };

        // TLS ticked for a server that speaks plain NNTP (the default is ticked).
        var tlsOnPlain = await ReadOkAsync(await shared.Ui.PostAsync("/ui/api/settings/providers/test", Request(plain.Port, true), ct), ct);
        var error = tlsOnPlain.GetProperty("error").GetString()!;
        Assert.StartsWith($"TLS failed: the server did not answer TLS on port {plain.Port} (", error, StringComparison.Ordinal);
        Assert.EndsWith("): untick TLS, or use the provider's TLS port (usually 563).", error, StringComparison.Ordinal);
        Assert.DoesNotContain("TLS failed: TLS failed", error, StringComparison.Ordinal);
        Assert.Equal(1, error.Split("failed:").Length - 1);

        // Nothing listening on the port.
        var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var closedPort = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        var refused = await ReadOkAsync(await shared.Ui.PostAsync("/ui/api/settings/providers/test", Request(closedPort, false), ct), ct);
        Assert.Equal($"connect failed: nothing accepts connections on 127.0.0.1:{closedPort}: check the host and port (119 without TLS, 563 with TLS).", refused.GetProperty("error").GetString());

        // Untick TLS against the same plain server: it passes.
        var passed = await ReadOkAsync(await shared.Ui.PostAsync("/ui/api/settings/providers/test", Request(plain.Port, false), ct), ct);
        Assert.True(passed.GetProperty("ok").GetBoolean(), passed.ToString());
    }

    [Fact]
    public async Task A_provider_an_older_version_stored_loads_and_a_change_without_its_password_keeps_it()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        // The rows as an older version wrote them: capitalised booleans, fields it did not know left out.
        await using (var first = await StartAsync(data, ct))
        {
            await using var db = await first.Services.GetRequiredService<IDbContextFactory<NzbDavDbContext>>().CreateDbContextAsync(ct);
            foreach (var (key, value) in new Dictionary<string, string>
            {
                ["Name"] = "old", ["Host"] = "127.0.0.1", ["Port"] = "119", ["UseTls"] = "False", ["User"] = "reader",
                ["Password"] = "kept-secret", ["MaxConnections"] = "3", ["Enabled"] = "False",
            })
            {
                db.ConfigItems.Add(new ConfigItem { Key = $"{StoredSettingsSource.KeyPrefix}Usenet:Providers:{StoredSettings.FirstUiProviderIndex}:{key}", Value = value });
            }

            await db.SaveChangesAsync(ct);
        }

        await using var server = await StartAsync(data, ct);
        using var ui = await LoginAsync(server, ct);
        var provider = Assert.Single((await ViewAsync(ui, ct)).GetProperty("providers").EnumerateArray());
        Assert.Equal("old", provider.GetProperty("name").GetString());
        Assert.Equal(119, provider.GetProperty("port").GetInt32());
        Assert.False(provider.GetProperty("useTls").GetBoolean());
        Assert.True(provider.GetProperty("hasPassword").GetBoolean());
        Assert.Equal(4, provider.GetProperty("pipelineDepth").GetInt32());
        Assert.Equal("Primary", provider.GetProperty("role").GetString());
        Assert.True(provider.GetProperty("editable").GetBoolean());
        Assert.False(provider.TryGetProperty("password", out _));

        // A change that leaves the password out keeps it.
        var view = await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers/old",
            new { name = "old", host = "127.0.0.1", port = 119, useTls = false, user = "reader", maxConnections = 5, enabled = false }, ct), ct);
        Assert.Equal(5, Assert.Single(view.GetProperty("providers").EnumerateArray()).GetProperty("maxConnections").GetInt32());
        var options = server.Services.GetRequiredService<Microsoft.Extensions.Options.IOptionsMonitor<UsenetOptions>>().CurrentValue;
        var stored = Assert.Single(options.Providers);
        Assert.Equal("kept-secret", stored.Password);
        Assert.Equal(5, stored.MaxConnections);

        // "" removes it.
        await ReadOkAsync(await ui.PostAsync("/ui/api/settings/providers/old",
            new { name = "old", host = "127.0.0.1", port = 119, useTls = false, user = "reader", password = "", maxConnections = 5, enabled = false, force = true }, ct), ct);
        Assert.Null(Assert.Single(server.Services.GetRequiredService<Microsoft.Extensions.Options.IOptionsMonitor<UsenetOptions>>().CurrentValue.Providers).Password);
    }

    [Fact]
    public async Task A_regenerated_api_key_is_the_only_one_the_sab_api_metrics_and_the_ui_know_within_a_second()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        string oldKey, newKey;
        await using (var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct,
            "--NzbDav:ApiKey=", "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin))
        {
            using var ui = await LoginAsync(server, ct);
            oldKey = (await ViewAsync(ui, ct)).GetProperty("sab").GetProperty("apiKey").GetString()!;
            Assert.True(await SabAcceptsAsync(server, oldKey, ct));
            Assert.Equal(HttpStatusCode.OK, await MetricsAsync(server, oldKey, ct));

            var regenerated = Stopwatch.StartNew();
            newKey = (await ReadOkAsync(await ui.PostAsync("/ui/api/settings/api-key", new { }, ct), ct)).GetProperty("apiKey").GetString()!;
            Assert.NotEqual(oldKey, newKey);
            Assert.False(await SabAcceptsAsync(server, oldKey, ct));
            Assert.Equal(HttpStatusCode.Unauthorized, await MetricsAsync(server, oldKey, ct));
            Assert.Equal(newKey, (await ViewAsync(ui, ct)).GetProperty("sab").GetProperty("apiKey").GetString());
            Assert.Equal(newKey, (await UiJobsTests.GetAsync(ui, "/ui/api/integrations", ct)).GetProperty("sab").GetProperty("apiKey").GetString());
            Assert.True(await SabAcceptsAsync(server, newKey, ct));
            Assert.Equal(HttpStatusCode.OK, await MetricsAsync(server, newKey, ct));
            Assert.True(regenerated.Elapsed < TimeSpan.FromSeconds(1), $"the new key took {regenerated.Elapsed.TotalMilliseconds:0} ms to be the only one");
        }

        // It outlives a restart: stored, not only held in memory.
        await using var again = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:ApiKey=");
        Assert.True(await SabAcceptsAsync(again, newKey, ct));
        Assert.False(await SabAcceptsAsync(again, oldKey, ct));
    }

    [Fact]
    public async Task A_configured_api_key_wins_over_the_stored_one_and_cannot_be_regenerated()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        string stored;
        await using (var first = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct,
            "--NzbDav:ApiKey=", "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin))
        {
            using var ui = await LoginAsync(first, ct);
            stored = (await ViewAsync(ui, ct)).GetProperty("sab").GetProperty("apiKey").GetString()!;
        }

        await using var server = await StartAsync(data, ct);
        using var client = await LoginAsync(server, ct);
        var sab = (await ViewAsync(client, ct)).GetProperty("sab");
        Assert.Equal(TestServer.ApiKey, sab.GetProperty("apiKey").GetString());
        Assert.True(sab.GetProperty("apiKeyLocked").GetBoolean());
        Assert.False(await SabAcceptsAsync(server, stored, ct));
        using var refused = await client.PostAsync("/ui/api/settings/api-key", new { }, ct);
        Assert.Equal(HttpStatusCode.Conflict, refused.StatusCode);
        Assert.True(await SabAcceptsAsync(server, TestServer.ApiKey, ct));
    }

    private static Task<TestServer> StartAsync(TempDirectory data, CancellationToken ct) =>
        TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin);

    private static async Task<UiClient> LoginAsync(TestServer server, CancellationToken ct)
    {
        var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Admin, ct);
        return ui;
    }

    private static Task<JsonElement> ViewAsync(UiClient ui, CancellationToken ct) => UiJobsTests.GetAsync(ui, "/ui/api/settings", ct);

    private static async Task<JsonElement> ReadOkAsync(HttpResponseMessage response, CancellationToken ct)
    {
        using (response)
        {
            var body = await UiClient.ReadAsync(response, ct);
            Assert.True(response.IsSuccessStatusCode, $"answered {(int)response.StatusCode}: {body}");
            return body;
        }
    }

    private static async Task<bool> SabAcceptsAsync(TestServer server, string key, CancellationToken ct)
    {
        using var response = await server.Http.GetAsync($"/api?mode=queue&output=json&apikey={Uri.EscapeDataString(key)}", ct);
        var body = JsonDocument.Parse(await response.Content.ReadAsStringAsync(ct)).RootElement;
        return !body.TryGetProperty("status", out var status) || status.ValueKind != JsonValueKind.False;
    }

    private static async Task<HttpStatusCode> MetricsAsync(TestServer server, string key, CancellationToken ct)
    {
        using var response = await server.Http.GetAsync("/metrics?apikey=" + Uri.EscapeDataString(key), ct);
        return response.StatusCode;
    }

    /// <summary>One server for the refusals: none of them may change it, which each test checks.</summary>
    public sealed class RefusingServer : IAsyncLifetime
    {
        private readonly TempDirectory _data = new();

        public TestServer Server { get; private set; } = null!;

        public UiClient Ui { get; private set; } = null!;

        public async ValueTask InitializeAsync()
        {
            Server = await StartAsync(_data, TestContext.Current.CancellationToken);
            Ui = await LoginAsync(Server, TestContext.Current.CancellationToken);
        }

        public async ValueTask DisposeAsync()
        {
            Ui?.Dispose();
            if (Server is not null)
                await Server.DisposeAsync();
            _data.Dispose();
        }
    }
}
