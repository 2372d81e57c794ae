using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Hosting;

namespace NzbDav.Server.Tests.Api;

/// <summary>The real host on 127.0.0.1:0 with a given data directory, plus a SABnzbd-speaking HTTP client.</summary>
public sealed class TestServer : IAsyncDisposable
{
    public const string ApiKey = "test-api-key";

    private readonly WebApplication _app;

    private TestServer(WebApplication app, HttpClient http)
    {
        _app = app;
        Http = http;
    }

    public HttpClient Http { get; }

    public IServiceProvider Services => _app.Services;

    public static Task<TestServer> StartAsync(string dataDirectory, int? nntpPort, bool holdQueue, CancellationToken cancellationToken, params string[] extra) =>
        StartAsync(dataDirectory, nntpPort, holdQueue, null, cancellationToken, extra);

    /// <summary>As above, with <paramref name="configureServices"/> run last (a test's log sink, stand-ins).</summary>
    public static async Task<TestServer> StartAsync(string dataDirectory, int? nntpPort, bool holdQueue, Action<IServiceCollection>? configureServices, CancellationToken cancellationToken, params string[] extra)
    {
        List<string> args =
        [
            "--urls", "http://127.0.0.1:0",
            "--NzbDav:DataDirectory=" + dataDirectory,
            "--NzbDav:ApiKey=" + ApiKey,
            "--NzbDav:Queue:Hold=" + (holdQueue ? "true" : "false"),
        ];
        if (nntpPort is { } port)
        {
            args.AddRange(
            [
                "--Usenet:Providers:0:Name=mock", "--Usenet:Providers:0:Host=127.0.0.1",
                "--Usenet:Providers:0:Port=" + port, "--Usenet:Providers:0:UseTls=false",
                "--Usenet:Providers:0:MaxConnections=4",
            ]);
        }

        args.AddRange(extra);
        var app = NzbDavHost.Build([.. args], configureServices);
        await app.StartAsync(cancellationToken);
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();
        return new TestServer(app, new HttpClient { BaseAddress = new Uri(address) });
    }

    public async Task<JsonElement> GetAsync(string query, CancellationToken cancellationToken)
    {
        using var response = await Http.GetAsync("/api?output=json&" + query, cancellationToken);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken)).RootElement.Clone();
    }

    public async Task<JsonElement> AddFileAsync(byte[] nzb, string field, string fileName, string category, CancellationToken cancellationToken)
    {
        using var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(nzb);
        file.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
        form.Add(file, field, fileName);
        using var response = await Http.PostAsync($"/api?mode=addfile&cat={category}&priority=-100&output=json&apikey={ApiKey}", form, cancellationToken);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken)).RootElement.Clone();
    }

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        await _app.StopAsync(CancellationToken.None);
        await _app.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
    }
}
