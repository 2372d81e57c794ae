using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health.Arr;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;
using NzbDav.Server.Tests.WebUi;

namespace NzbDav.Server.Tests.Health.Arr;

/// <summary>
/// The Settings page's Sonarr/Radarr calls on the real host, over HTTP, against fake instances:
/// tested before saving (422 unless forced), stored in the database and in effect at once, the
/// ones from settings.json read-only, and the API keys never in any answer.
/// </summary>
public sealed class UiArrSettingsTests
{
    private const string Admin = "correct horse battery";
    private const string SonarrKey = "sonarr-secret-key-0123456789abcdef";
    private const string RadarrKey = "radarr-secret-key-0123456789abcdef";

    [Fact]
    public async Task Instances_are_tested_saved_changed_and_deleted_and_their_keys_never_leave_the_server()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var sonarr = await FakeArrServer.StartAsync(ArrKind.Sonarr, ct, SonarrKey);
        await using var radarr = await FakeArrServer.StartAsync(ArrKind.Radarr, ct, RadarrKey, urlBase: "/radarr");
        using var data = new TempDirectory();
        await File.WriteAllTextAsync(RuntimeSettings.PathIn(data.Path), JsonSerializer.Serialize(new
        {
            Arr = new { Instances = new[] { new { Name = "file-sonarr", Kind = "Sonarr", Url = sonarr.Url.ToString(), ApiKey = SonarrKey, Categories = new[] { "tv" } } } },
        }), ct);
        var answers = new StringBuilder();
        var dataPath = data.Path;
        await using (var server = await TestServer.StartAsync(dataPath, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin))
        {
            using var ui = new UiClient(server.Http.BaseAddress!);
            await ui.LoginAsync("admin", Admin, ct);
            var options = server.Services.GetRequiredService<IOptionsMonitor<ArrOptions>>();

            // The file's instance: shown with its source, read-only, its key only as "set".
            var file = Assert.Single((await GetAsync(ui, answers, ct)).GetProperty("arr").EnumerateArray());
            Assert.Equal(("file-sonarr", "Sonarr", false, "settings.json", true), Fields(file));
            Assert.Equal(["tv"], file.GetProperty("categories").EnumerateArray().Select(static c => c.GetString()));

            // Test: the posted values; a wrong key and a Radarr posted as a Sonarr say so plainly.
            var test = await PostAsync(ui, "/ui/api/settings/arr/test", Radarr(radarr, RadarrKey), HttpStatusCode.OK, answers, ct);
            Assert.Equal((true, "Radarr", radarr.Version), (test.GetProperty("ok").GetBoolean(), test.GetProperty("appName").GetString(), test.GetProperty("version").GetString()));
            test = await PostAsync(ui, "/ui/api/settings/arr/test", Radarr(radarr, "wrong-key"), HttpStatusCode.OK, answers, ct);
            Assert.False(test.GetProperty("ok").GetBoolean());
            Assert.StartsWith("401: the API key was refused", test.GetProperty("error").GetString(), StringComparison.Ordinal);
            test = await PostAsync(ui, "/ui/api/settings/arr/test", Radarr(radarr, RadarrKey) with { Kind = "Sonarr" }, HttpStatusCode.OK, answers, ct);
            Assert.Contains("is a Radarr 5.21.1.9799, not a Sonarr", test.GetProperty("error").GetString(), StringComparison.Ordinal);
            // A saved instance is tested with its stored key when none is typed.
            test = await PostAsync(ui, "/ui/api/settings/arr/test", new Request("file-sonarr", "Sonarr", sonarr.Url.ToString(), "", null, null, null), HttpStatusCode.OK, answers, ct);
            Assert.True(test.GetProperty("ok").GetBoolean(), test.GetRawText());

            // A failing test keeps it unsaved unless forced.
            var refused = await PostAsync(ui, "/ui/api/settings/arr", Radarr(radarr, "wrong-key"), HttpStatusCode.UnprocessableEntity, answers, ct);
            Assert.Contains("the test failed (401: the API key was refused", refused.GetProperty("error").GetString(), StringComparison.Ordinal);
            Assert.False(refused.GetProperty("test").GetProperty("ok").GetBoolean());
            Assert.Single(options.CurrentValue.Instances);
            var view = await PostAsync(ui, "/ui/api/settings/arr", Radarr(radarr, "wrong-key") with { Force = true }, HttpStatusCode.OK, answers, ct);
            Assert.Equal(("radarr", "Radarr", true, "web UI", true), Fields(view.GetProperty("arr")[1]));
            Assert.Equal("wrong-key", options.CurrentValue.Instances.Single(i => i.Name == "radarr").ApiKey);

            // Changed with the right key: tested, saved, in effect at once.
            await PostAsync(ui, "/ui/api/settings/arr/radarr", Radarr(radarr, RadarrKey), HttpStatusCode.OK, answers, ct);
            Assert.Equal(RadarrKey, options.CurrentValue.Instances.Single(i => i.Name == "radarr").ApiKey);
            // Changed without a key: the stored one stays (and the connection is unchanged, so no test).
            radarr.FailOn("GET", "/api/v3/system/status");
            view = await PostAsync(ui, "/ui/api/settings/arr/radarr", Radarr(radarr, "") with { Categories = ["movies", "4k"], TimeoutSeconds = 30 }, HttpStatusCode.OK, answers, ct);
            var saved = options.CurrentValue.Instances.Single(i => i.Name == "radarr");
            Assert.Equal((RadarrKey, TimeSpan.FromSeconds(30)), (saved.ApiKey, saved.Timeout));
            Assert.Equal(["movies", "4k"], saved.Categories);
            Assert.Equal(30, view.GetProperty("arr")[1].GetProperty("timeoutSeconds").GetDouble());
            // The repair sees the instances as they are now.
            using (var scope = server.Services.CreateScope())
                Assert.Same(server.Services.GetRequiredService<ArrRepairService>(), scope.ServiceProvider.GetRequiredService<IArrRepairService>());

            // Refusals: settings.json's instance, a taken name, a bad address.
            await PostAsync(ui, "/ui/api/settings/arr/file-sonarr", new Request("file-sonarr", "Sonarr", sonarr.Url.ToString(), SonarrKey, null, null, null), HttpStatusCode.Conflict, answers, ct);
            await PostAsync(ui, "/ui/api/settings/arr/file-sonarr/delete", new { }, HttpStatusCode.Conflict, answers, ct);
            var taken = await PostAsync(ui, "/ui/api/settings/arr", new Request("FILE-SONARR", "Sonarr", sonarr.Url.ToString(), SonarrKey, null, null, null, Force: true), HttpStatusCode.BadRequest, answers, ct);
            Assert.Contains("exists already (from the settings.json)", taken.GetProperty("error").GetString(), StringComparison.Ordinal);
            var bad = await PostAsync(ui, "/ui/api/settings/arr", new Request("x", "Sonarr", "sonarr:8989", SonarrKey, null, null, null), HttpStatusCode.BadRequest, answers, ct);
            Assert.Contains("http://", bad.GetProperty("error").GetString(), StringComparison.Ordinal);
            Assert.Equal("url", bad.GetProperty("field").GetString());
            var keyless = await PostAsync(ui, "/ui/api/settings/arr", new Request("y", "Sonarr", sonarr.Url.ToString(), "", null, null, null), HttpStatusCode.BadRequest, answers, ct);
            Assert.Equal("API key is required.", keyless.GetProperty("error").GetString());
            Assert.Equal("apiKey", keyless.GetProperty("field").GetString());
        }

        // Stored: a restart has the UI's instance, key and all; then it is deleted.
        await using (var again = await TestServer.StartAsync(dataPath, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Admin))
        {
            var options = again.Services.GetRequiredService<IOptionsMonitor<ArrOptions>>();
            Assert.Equal(RadarrKey, options.CurrentValue.Instances.Single(i => i.Name == "radarr").ApiKey);
            using var ui = new UiClient(again.Http.BaseAddress!);
            await ui.LoginAsync("admin", Admin, ct);
            var view = await PostAsync(ui, "/ui/api/settings/arr/radarr/delete", new { }, HttpStatusCode.OK, answers, ct);
            Assert.Equal(["file-sonarr"], view.GetProperty("arr").EnumerateArray().Select(static a => a.GetProperty("name").GetString()));
            Assert.Equal(["file-sonarr"], options.CurrentValue.Instances.Select(static i => i.Name));
            await PostAsync(ui, "/ui/api/settings/arr/radarr/delete", new { }, HttpStatusCode.NotFound, answers, ct);
        }

        var everything = answers.ToString();
        Assert.Contains("\"hasApiKey\":true", everything, StringComparison.Ordinal);
        Assert.DoesNotContain(SonarrKey, everything, StringComparison.Ordinal);
        Assert.DoesNotContain(RadarrKey, everything, StringComparison.Ordinal);
    }

    private static Request Radarr(FakeArrServer radarr, string apiKey) =>
        new("radarr", "Radarr", radarr.Url.ToString(), apiKey, true, ["movies"], null);

    private static (string?, string?, bool, string?, bool) Fields(JsonElement instance) => (
        instance.GetProperty("name").GetString(), instance.GetProperty("kind").GetString(), instance.GetProperty("editable").GetBoolean(),
        instance.GetProperty("source").GetString(), instance.GetProperty("hasApiKey").GetBoolean());

    private static async Task<JsonElement> GetAsync(UiClient ui, StringBuilder answers, CancellationToken ct)
    {
        using var response = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/settings"), ct);
        var text = await response.Content.ReadAsStringAsync(ct);
        answers.AppendLine(text);
        Assert.True(response.IsSuccessStatusCode, text);
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    private static async Task<JsonElement> PostAsync(UiClient ui, string path, object body, HttpStatusCode expected, StringBuilder answers, CancellationToken ct)
    {
        using var response = await ui.PostAsync(path, body, ct);
        var text = await response.Content.ReadAsStringAsync(ct);
        answers.AppendLine(text);
        Assert.True(expected == response.StatusCode, $"{path}: {(int)response.StatusCode} {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    /// <summary>The UI's request body (camelCase on the wire).</summary>
    private sealed record Request(
        string Name, string Kind, string Url, string ApiKey, bool? Enabled, string[]? Categories, double? TimeoutSeconds, bool Force = false);
}
