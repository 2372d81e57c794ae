using System.Diagnostics;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Api;

namespace NzbDav.Server.Tests.Ingestion;

/// <summary>The real host over a mock provider, with WebDAV credentials and an authenticated client.</summary>
internal sealed class IngestionHost : IAsyncDisposable
{
    public const string Password = "ingest-pass";

    private static readonly TimeSpan ProviderDeadline = TimeSpan.FromSeconds(30);

    private int _disposed;

    private IngestionHost(TestServer server)
    {
        Server = server;
        Dav = new HttpClient { BaseAddress = server.Http.BaseAddress };
        Dav.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes("admin:" + Password)));
    }

    public TestServer Server { get; }

    public HttpClient Dav { get; }

    /// <param name="output">When given, the host's own log lines go to the test output (ingestion step times).</param>
    /// <param name="configuration">More <c>--Section:Key=value</c> arguments for the host.</param>
    public static async Task<IngestionHost> StartAsync(string dataDirectory, int nntpPort, CancellationToken cancellationToken, ITestOutputHelper? output = null, params string[] configuration) =>
        new(await TestServer.StartAsync(dataDirectory, nntpPort, holdQueue: false,
            output is null ? null : services => services.AddSingleton<ILoggerProvider>(new TestOutputLogger(output, "NzbDav.Server")),
            cancellationToken, ["--NzbDav:WebDav:Password=" + Password, .. configuration]));

    /// <summary>As above, with every timer, deadline and due time of the host on <paramref name="time"/> (a test's clock).</summary>
    public static async Task<IngestionHost> StartAsync(string dataDirectory, int nntpPort, TimeProvider time, ITestOutputHelper? output, CancellationToken cancellationToken, params string[] configuration) =>
        new(await TestServer.StartAsync(dataDirectory, nntpPort, holdQueue: false,
            services =>
            {
                services.AddSingleton(time);
                if (output is not null)
                    services.AddSingleton<ILoggerProvider>(new TestOutputLogger(output, "NzbDav.Server"));
            },
            cancellationToken, ["--NzbDav:WebDav:Password=" + Password, .. configuration]));

    /// <summary>As above, with <paramref name="configureServices"/> run after the host's own registrations.</summary>
    public static async Task<IngestionHost> StartAsync(string dataDirectory, int nntpPort, Action<IServiceCollection> configureServices, CancellationToken cancellationToken, params string[] configuration) =>
        new(await TestServer.StartAsync(dataDirectory, nntpPort, holdQueue: false, configureServices,
            cancellationToken, ["--NzbDav:WebDav:Password=" + Password, .. configuration]));

    /// <summary>As above, with the host's log entries going to <paramref name="logs"/>.</summary>
    public static async Task<IngestionHost> StartAsync(string dataDirectory, int? nntpPort, ILoggerProvider logs, CancellationToken cancellationToken, params string[] configuration) =>
        new(await TestServer.StartAsync(dataDirectory, nntpPort, holdQueue: false, services => services.AddSingleton(logs),
            cancellationToken, ["--NzbDav:WebDav:Password=" + Password, .. configuration]));

    /// <summary>What Sonarr sends when the download client is added or tested, before it sends any NZB.</summary>
    public async Task ConnectLikeSonarrAsync(CancellationToken cancellationToken)
    {
        foreach (var mode in new[] { "version", "get_config", "get_cats", "fullstatus", "queue", "history" })
            await Server.GetAsync($"mode={mode}&apikey={TestServer.ApiKey}", cancellationToken);
    }

    /// <summary>addfile, then polls history like Sonarr until the job leaves the queue.</summary>
    public async Task<JsonElement> AddAndWaitAsync(byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        var added = await Server.AddFileAsync(nzb, "name", fileName, "tv", cancellationToken);
        return await Server.WaitForHistoryAsync(added.GetProperty("nzo_ids")[0].GetString()!, cancellationToken);
    }

    /// <summary>GET of a file under the job folder; the path is escaped segment by segment.</summary>
    public Task<HttpResponseMessage> GetAsync(string jobFolder, string relativePath, CancellationToken cancellationToken, string? range = null)
    {
        var path = "/content/tv/" + Uri.EscapeDataString(jobFolder) + "/" + string.Join('/', relativePath.Split('/').Select(Uri.EscapeDataString));
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (range is not null)
            request.Headers.TryAddWithoutValidation("Range", range);
        return Dav.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken);
    }

    /// <summary>
    /// Stops the host and waits until <paramref name="provider"/> has ended every session the host
    /// had open. The mock counts a command before answering it and nothing once its session has
    /// ended, so from then on nothing the host sent can still move the provider's counts.
    /// </summary>
    public async Task StopAndWaitForProviderAsync(MockNntpServer provider, CancellationToken cancellationToken)
    {
        await DisposeAsync();
        var started = Stopwatch.GetTimestamp();
        while (provider.Stats.CurrentConnections > 0)
        {
            Assert.True(Stopwatch.GetElapsedTime(started) < ProviderDeadline,
                $"{provider.Stats.CurrentConnections} sessions still open at the provider {ProviderDeadline.TotalSeconds} s after the host stopped");
            await Task.Delay(20, cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        Dav.Dispose();
        await Server.DisposeAsync();
    }
}
