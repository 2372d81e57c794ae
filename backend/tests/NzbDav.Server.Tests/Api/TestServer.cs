using System.Net.Http.Headers;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using NzbDav.Testing.Hosting;

namespace NzbDav.Server.Tests.Api;

/// <summary>The real host on 127.0.0.1:0 with a given data directory, plus a SABnzbd-speaking HTTP client.</summary>
public sealed class TestServer : IAsyncDisposable
{
    public const string ApiKey = "test-api-key";

    private readonly TestHost _host;

    private TestServer(TestHost host)
    {
        _host = host;
        Http = host.CreateClient();
    }

    public HttpClient Http { get; }

    public IServiceProvider Services => _host.Services;

    public static Task<TestServer> StartAsync(string dataDirectory, int? nntpPort, bool holdQueue, CancellationToken cancellationToken, params string[] extra) =>
        StartAsync(dataDirectory, nntpPort, holdQueue, null, cancellationToken, extra);

    /// <summary>As above, with <paramref name="configureServices"/> run last (a test's log sink, stand-ins).</summary>
    public static async Task<TestServer> StartAsync(string dataDirectory, int? nntpPort, bool holdQueue, Action<IServiceCollection>? configureServices, CancellationToken cancellationToken, params string[] extra)
    {
        var builder = new TestHostBuilder(dataDirectory, ApiKey).HoldQueue(holdQueue);
        if (nntpPort is { } port)
            builder.WithProvider(port);
        return new TestServer(await builder.WithArguments(extra).ConfigureServices(configureServices).StartAsync(cancellationToken));
    }

    /// <summary>GET <c>/api?output=json&amp;</c><paramref name="query"/>.</summary>
    public Task<JsonElement> GetAsync(string query, CancellationToken cancellationToken) =>
        GetJsonAsync("/api?output=json&" + query, cancellationToken);

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

    /// <summary>Polls the history like Sonarr until job <paramref name="nzoId"/> is in it, and returns its slot.</summary>
    public Task<JsonElement> WaitForHistoryAsync(string nzoId, CancellationToken cancellationToken) =>
        WaitForHistoryAsync(nzoId, mustStayQueued: false, cancellationToken);

    /// <summary>As above; with <paramref name="mustStayQueued"/>, a job found in neither the queue nor the history fails the test as lost.</summary>
    public Task<JsonElement> WaitForHistoryAsync(string nzoId, bool mustStayQueued, CancellationToken cancellationToken) =>
        JobHistory.WaitForHistoryAsync(GetJsonAsync, JobListApi.Sab(ApiKey), nzoId, mustStayQueued, cancellationToken);

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        await _host.DisposeAsync();
    }

    private async Task<JsonElement> GetJsonAsync(string path, CancellationToken cancellationToken)
    {
        using var response = await Http.GetAsync(path, cancellationToken);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken)).RootElement.Clone();
    }
}
