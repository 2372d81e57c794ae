using System.Net;
using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using NzbDav.Server.Configuration;
using NzbDav.Server.Hosting;
using NzbDav.Server.WebDav;
using NzbDav.Tools.Testing.ServeCpu;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// The real web host for the WebDAV benchmark: Kestrel on 127.0.0.1 port 0, a temporary data
/// directory, the mock server as its only provider with the same connection cap, a random WebDAV
/// password, and one <see cref="HttpClient"/> that talks to it as rclone would (Basic auth).
/// </summary>
internal sealed class BenchmarkHost : IAsyncDisposable
{
    private const string User = "bench";
    private static readonly TimeSpan CompletionDeadline = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(50);

    private static readonly TimeSpan ChildDeadline = TimeSpan.FromSeconds(60);

    private readonly ChildProcess? _child;
    private readonly DirectoryInfo _data;
    private WebApplication? _app;
    private IReadOnlyList<string> _arguments = [];

    private BenchmarkHost(WebApplication? app, ChildProcess? child, DirectoryInfo data, Uri root, string password, string apiKey)
    {
        _app = app;
        _child = child;
        _data = data;
        ApiKey = apiKey;
        Root = root;
        Password = password;
        // One handler for every request, as a real client keeps its connections; no proxy, no decompression.
        Http = new HttpClient(new SocketsHttpHandler { UseProxy = false, AutomaticDecompression = DecompressionMethods.None })
        {
            BaseAddress = root,
            Timeout = Timeout.InfiniteTimeSpan,
        };
        Http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(User + ":" + password)));
    }

    public HttpClient Http { get; }

    public Uri Root { get; }

    /// <summary>The WebDAV password, which is the web UI's administrator password too.</summary>
    public string Password { get; }

    public static string UserName => User;

    public string ApiKey { get; }

    public IServiceProvider Services => _app?.Services ?? throw new InvalidOperationException("The host runs in a child process.");

    /// <summary>The child process's peak RSS when the host runs in one (<see cref="StartChildAsync"/>); null in-process.</summary>
    public long? ChildPeakRssBytes => _child?.PeakRssBytes();

    public static Task<BenchmarkHost> StartAsync(int nntpPort, int connections, IReadOnlyList<string> configuration, CancellationToken cancellationToken, long diskCacheBytes = 0) =>
        StartAsync(MockProvider(nntpPort, connections), configuration, cancellationToken, diskCacheBytes);

    /// <summary>The arguments that make the mock server on <paramref name="nntpPort"/> the host's one provider.</summary>
    public static IReadOnlyList<string> MockProvider(int nntpPort, int connections) =>
    [
        "--Usenet:Providers:0:Name=mock",
        "--Usenet:Providers:0:Host=127.0.0.1",
        "--Usenet:Providers:0:Port=" + nntpPort,
        "--Usenet:Providers:0:UseTls=false",
        "--Usenet:Providers:0:MaxConnections=" + connections,
    ];

    /// <summary>
    /// Starts the host with <paramref name="providers"/> (<c>--Usenet:Providers:N:Key=value</c> arguments)
    /// as its providers. With <paramref name="diskCacheBytes"/> above 0 it keeps a disk segment cache
    /// of that size in its data directory, as the image does under /config (a <c>--Cache:…</c>
    /// override in <paramref name="configuration"/> still wins).
    /// </summary>
    public static async Task<BenchmarkHost> StartAsync(IReadOnlyList<string> providers, IReadOnlyList<string> configuration, CancellationToken cancellationToken, long diskCacheBytes = 0)
    {
        var data = Directory.CreateTempSubdirectory("nzbdav-webdav-bench-");
        var password = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(12));
        WebApplication? app = null;
        try
        {
            string[] cache = diskCacheBytes > 0
                ? ["--Cache:Path=" + Path.Combine(data.FullName, "cache"), "--Cache:MaxBytes=" + diskCacheBytes.ToString(System.Globalization.CultureInfo.InvariantCulture)]
                : [];
            // Later command-line values win over appsettings and the caller's --Section:Key overrides.
            string[] arguments =
            [
                .. cache,
                .. configuration,
                "--NzbDav:DataDirectory=" + data.FullName,
                "--NzbDav:WebDav:User=" + User,
                "--NzbDav:WebDav:Password=" + password,
                "--NzbDav:Ui:AdminUser=" + User,
                "--NzbDav:Ui:AdminPassword=" + password,
                .. providers,
            ];
            app = NzbDavHost.Build([.. arguments, "--urls=http://127.0.0.1:0"]);
            await app.StartAsync(cancellationToken);
            var apiKey = app.Services.GetRequiredService<ApiKeyProvider>().ApiKey
                ?? throw new InvalidOperationException("The host started without an API key.");
            return new BenchmarkHost(app, null, data, RootUrl(app), password, apiKey) { _arguments = arguments };
        }
        catch
        {
            await StopAsync(app, data);
            throw;
        }
    }

    /// <summary>
    /// Starts the server as a child process (<c>dotnet NzbDav.dll</c> from this build's folder) with
    /// <paramref name="providers"/>, so its memory is measured apart from the clients and the mocks.
    /// Each line the server logs is handed to <paramref name="onLine"/> when given.
    /// </summary>
    public static async Task<BenchmarkHost> StartChildAsync(
        IReadOnlyList<string> providers, IReadOnlyList<string> configuration, CancellationToken cancellationToken, Action<string>? onLine = null)
    {
        var data = Directory.CreateTempSubdirectory("nzbdav-soak-host-");
        var credentials = ServeCpuCredentials.New();
        string[] arguments =
        [
            // The caller's overrides first: the settings the run depends on come later and win.
            .. configuration,
            "--urls=http://127.0.0.1:0",
            "--NzbDav:DataDirectory=" + data.FullName,
            "--NzbDav:ApiKey=" + credentials.ApiKey,
            "--NzbDav:WebDav:User=" + User,
            "--NzbDav:WebDav:Password=" + credentials.Password,
            "--NzbDav:Ui:AdminUser=" + User,
            "--NzbDav:Ui:AdminPassword=" + credentials.Password,
            .. providers,
            "--Serilog:WriteTo:0:Name=Console",
            "--Serilog:MinimumLevel:Override:Microsoft.Hosting.Lifetime=Information",
        ];
        try
        {
            // The data directory is the content root too, so no appsettings.json is picked up by accident.
            var (child, url) = await ChildProcess.StartAsync(
                "the NzbDav server", Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"), arguments, data.FullName,
                ServeCpuChildren.ListeningUrl, ChildDeadline, cancellationToken, onLine);
            return new BenchmarkHost(null, child, data, new UriBuilder(url) { Path = "/" }.Uri, credentials.Password, credentials.ApiKey);
        }
        catch
        {
            await StopAsync(null, data);
            throw;
        }
    }

    /// <summary>
    /// Stops the in-process host and starts a new one over the same data directory, on the same port
    /// (so <see cref="Http"/> keeps working): a server restart, with its database and disk cache kept
    /// and every in-memory cache gone.
    /// </summary>
    public async Task RestartAsync(CancellationToken cancellationToken)
    {
        var old = _app ?? throw new InvalidOperationException("Only an in-process host restarts here.");
        await old.StopAsync(cancellationToken);
        await old.DisposeAsync();
        _app = null;
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        var app = NzbDavHost.Build([.. _arguments, "--urls=" + Root.GetLeftPart(UriPartial.Authority)]);
        await app.StartAsync(cancellationToken);
        _app = app;
    }

    /// <summary>Polls <c>/ready</c> until it answers 200: on a cluster, until the node holds a provider lease.</summary>
    public async Task WaitUntilReadyAsync(CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(ChildDeadline);
        string last = "no answer";
        try
        {
            while (true)
            {
                using (var response = await Http.GetAsync("/ready", deadline.Token))
                {
                    if (response.IsSuccessStatusCode)
                        return;
                    last = $"{(int)response.StatusCode} {await response.Content.ReadAsStringAsync(deadline.Token)}";
                }

                await Task.Delay(PollInterval, deadline.Token);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new InvalidOperationException($"{Root} was not ready after {ChildDeadline.TotalSeconds:F0} s: {last}");
        }
    }

    /// <summary>Submits an NZB through SABnzbd's <c>mode=addfile</c>, as Sonarr does; returns its nzo_id.</summary>
    public async Task<string> AddFileAsync(byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        using var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(nzb);
        file.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
        form.Add(file, "name", fileName);
        using var response = await Http.PostAsync(ApiUrl("mode=addfile"), form, cancellationToken);
        using var json = await ReadJsonAsync(response, cancellationToken);
        var root = json.RootElement;
        if (!root.TryGetProperty("status", out var status) || !status.GetBoolean()
            || !root.TryGetProperty("nzo_ids", out var ids) || ids.GetArrayLength() != 1)
        {
            throw new InvalidOperationException($"addfile of {fileName} was refused: {root.GetRawText()}");
        }

        return ids[0].GetString()!;
    }

    /// <summary>Polls <c>mode=history</c> until the job is Completed; returns its <c>/content</c> folder path.</summary>
    public async Task<string> WaitForCompletedAsync(string nzoId, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(CompletionDeadline);
        try
        {
            while (true)
            {
                using (var json = await GetApiAsync("mode=history", deadline.Token))
                {
                    foreach (var slot in json.RootElement.GetProperty("history").GetProperty("slots").EnumerateArray())
                    {
                        if (slot.GetProperty("nzo_id").GetString() != nzoId)
                            continue;
                        var name = slot.GetProperty("name").GetString()!;
                        return slot.GetProperty("status").GetString() switch
                        {
                            "Completed" => ContentFolder(slot),
                            var other => throw new InvalidOperationException($"Job {name} ended {other}: {slot.GetProperty("fail_message").GetString()}"),
                        };
                    }
                }

                await Task.Delay(PollInterval, deadline.Token);
            }
        }
        catch (OperationCanceledException ex) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"Job {nzoId} did not complete within {CompletionDeadline.TotalMinutes} minutes.", ex);
        }
    }

    /// <summary>GETs <c>/api?{mode}</c> as JSON with the API key; anything but a success status is an error.</summary>
    public async Task<JsonDocument> GetApiAsync(string mode, CancellationToken cancellationToken)
    {
        using var response = await Http.GetAsync(ApiUrl(mode), cancellationToken);
        return await ReadJsonAsync(response, cancellationToken);
    }

    /// <summary>The WebDAV folder (under <c>/content</c>) of a completed job's history slot.</summary>
    public static string ContentFolder(JsonElement slot) =>
        "/" + DavTree.Content + "/" + Uri.EscapeDataString(DavTree.CategoryFolder(slot.GetProperty("category").GetString()!))
        + "/" + Uri.EscapeDataString(slot.GetProperty("name").GetString()!) + "/";

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        if (_child is not null)
            await _child.DisposeAsync();
        await StopAsync(_app, _data);
    }

    private string ApiUrl(string mode) => "/api?" + mode + "&output=json&apikey=" + Uri.EscapeDataString(ApiKey);

    private static async Task<JsonDocument> ReadJsonAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"{response.RequestMessage?.RequestUri?.AbsolutePath} answered {(int)response.StatusCode}.");
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        return await JsonDocument.ParseAsync(body, cancellationToken: cancellationToken);
    }

    private static Uri RootUrl(WebApplication app)
    {
        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var address = addresses.FirstOrDefault(a => a.StartsWith("http://", StringComparison.OrdinalIgnoreCase))
            ?? throw new InvalidOperationException("The web host reports no http:// address.");
        return new UriBuilder(address) { Path = "/" }.Uri;
    }

    private static async Task StopAsync(WebApplication? app, DirectoryInfo data)
    {
        if (app is not null)
        {
            await app.StopAsync(CancellationToken.None);
            await app.DisposeAsync();
        }

        // Pooled SQLite handles would keep the database open and the folder undeletable.
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try
        {
            data.Delete(recursive: true);
        }
        catch (IOException)
        {
            // A file still held for a moment only leaves a folder in the system temp directory.
        }
    }
}
