using System.Net;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Tests.Api;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>
/// The UI API's OpenAPI document: behind the session, describing every UI API route, and equal to
/// the copy in <c>frontend/src/api/openapi.json</c> that the frontend's TypeScript types are
/// generated from (so a server change the frontend does not follow fails here, and the frontend's
/// type check fails on what it uses wrongly). <c>NZBDAV_WRITE_OPENAPI=1</c> rewrites the copy.
/// </summary>
public sealed class UiOpenApiTests
{
    private const string Password = "correct horse battery";

    [Fact]
    public async Task The_document_describes_every_ui_api_route_and_matches_the_frontends_copy()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        using (var anonymous = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/openapi/ui.json"), ct))
            Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        await ui.LoginAsync("admin", Password, ct);
        using var response = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/openapi/ui.json"), ct);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var document = JsonNode.Parse(await response.Content.ReadAsStringAsync(ct))!;

        var described = document["paths"]!.AsObject().Select(p => p.Key).ToHashSet(StringComparer.Ordinal);
        var routes = server.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>()
            .Select(e => e.RoutePattern.RawText!)
            .Where(r => r.StartsWith("/ui/api/", StringComparison.Ordinal) && !r.Contains("{**", StringComparison.Ordinal) && !r.Contains("{documentName}", StringComparison.Ordinal))
            .ToHashSet(StringComparer.Ordinal);
        Assert.Empty(routes.Except(described));
        Assert.NotNull(document["components"]!["schemas"]!["UiQueueView"]);

        await AssertFrontendCopyAsync(document, "openapi.json", "The UI API changed", "then `npm run build` in frontend/ to check the UI against it", ct);
    }

    /// <summary>
    /// The field declarations the settings view sends, as the frontend's unit tests read them
    /// (<c>frontend/src/api/fields.json</c>): the editor's logic is tested on the server's own fields.
    /// </summary>
    [Fact]
    public async Task The_field_declarations_the_settings_view_sends_match_the_frontends_copy()
    {
        var ct = TestContext.Current.CancellationToken;
        using var data = new TempDirectory();
        await using var server = await TestServer.StartAsync(data.Path, null, holdQueue: true, ct, "--NzbDav:Ui:AdminUser=admin", "--NzbDav:Ui:AdminPassword=" + Password);
        using var ui = new UiClient(server.Http.BaseAddress!);
        await ui.LoginAsync("admin", Password, ct);
        using var response = await ui.SendAsync(new HttpRequestMessage(HttpMethod.Get, "/ui/api/settings"), ct);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var view = JsonNode.Parse(await response.Content.ReadAsStringAsync(ct))!;
        var fields = new JsonObject
        {
            ["providerFields"] = view["providerFields"]!.DeepClone(),
            ["arrFields"] = view["arrFields"]!.DeepClone(),
        };
        Assert.Equal("host", fields["providerFields"]![1]!["name"]!.GetValue<string>());
        Assert.True(fields["providerFields"]![1]!["account"]!.GetValue<bool>());
        Assert.Equal(563, fields["providerFields"]![2]!["default"]!.GetValue<int>());

        await AssertFrontendCopyAsync(fields, "fields.json", "A provider or Sonarr/Radarr field changed", "then the frontend's tests", ct);
    }

    /// <summary>
    /// <paramref name="served"/> equals the frontend's copy <c>frontend/src/api/<paramref name="file"/></c>;
    /// <c>NZBDAV_WRITE_OPENAPI=1</c> writes the copy instead.
    /// </summary>
    private static async Task AssertFrontendCopyAsync(JsonNode served, string file, string change, string next, CancellationToken ct)
    {
        var text = served.ToJsonString(new JsonSerializerOptions { WriteIndented = true }) + "\n";
        var copy = Path.Combine(RepositoryRoot(), "frontend", "src", "api", file);
        if (Environment.GetEnvironmentVariable("NZBDAV_WRITE_OPENAPI") == "1")
            await File.WriteAllTextAsync(copy, text, ct);
        Assert.True(File.Exists(copy), $"{copy} is missing: run this test with NZBDAV_WRITE_OPENAPI=1 to write it.");
        Assert.True(
            text == (await File.ReadAllTextAsync(copy, ct)).ReplaceLineEndings("\n"),
            $"{change} but {copy} did not: run this test with NZBDAV_WRITE_OPENAPI=1, {next}.");
    }

    private static string RepositoryRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "NzbDav.sln")))
                return folder.FullName;
        }

        throw new InvalidOperationException("The tests run outside the repository: no NzbDav.sln above " + AppContext.BaseDirectory);
    }
}
