using System.Net;
using System.Text.Json;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// <c>--dashboards=N</c>: N browsers with the web UI's dashboard open during the web phase, each
/// logged in and reading the live feed (<c>GET /ui/api/live</c>) as an EventSource does.
/// </summary>
internal sealed class DashboardClients : IAsyncDisposable
{
    private readonly HttpClient _http;
    private readonly CancellationTokenSource _stop;
    private readonly Task<long>[] _readers;

    private DashboardClients(HttpClient http, CancellationTokenSource stop, Task<long>[] readers)
    {
        _http = http;
        _stop = stop;
        _readers = readers;
    }

    public static async Task<DashboardClients> StartAsync(Uri root, string user, string password, int count, CancellationToken cancellationToken)
    {
        var cookies = new CookieContainer();
        var http = new HttpClient(new SocketsHttpHandler { CookieContainer = cookies, UseProxy = false, MaxConnectionsPerServer = count + 4 })
        {
            BaseAddress = root,
            Timeout = Timeout.InfiniteTimeSpan,
        };
        try
        {
            var session = await http.GetFromJsonAsync<JsonElement>("/ui/api/session", cancellationToken);
            using var login = new HttpRequestMessage(HttpMethod.Post, "/ui/api/login") { Content = JsonContent.Create(new { user, password }) };
            login.Headers.Add("X-CSRF-Token", session.GetProperty("csrfToken").GetString());
            using (var response = await http.SendAsync(login, cancellationToken))
                response.EnsureSuccessStatusCode();
        }
        catch
        {
            http.Dispose();
            throw;
        }

        var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var readers = Enumerable.Range(0, count).Select(_ => Task.Run(() => ReadAsync(http, stop.Token), CancellationToken.None)).ToArray();
        return new DashboardClients(http, stop, readers);
    }

    /// <summary>Stops reading; returns the frames all dashboards received.</summary>
    public async Task<long> StopAsync()
    {
        await _stop.CancelAsync();
        var frames = await Task.WhenAll(_readers);
        return frames.Sum();
    }

    public async ValueTask DisposeAsync()
    {
        if (!_stop.IsCancellationRequested)
            await StopAsync();
        _stop.Dispose();
        _http.Dispose();
    }

    private static async Task<long> ReadAsync(HttpClient http, CancellationToken cancellationToken)
    {
        long frames = 0;
        try
        {
            using var response = await http.GetAsync("/ui/api/live", HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            response.EnsureSuccessStatusCode();
            using var lines = new StreamReader(await response.Content.ReadAsStreamAsync(cancellationToken));
            while (await lines.ReadLineAsync(cancellationToken) is { } line)
            {
                if (line.StartsWith("data: ", StringComparison.Ordinal))
                    frames++;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The run is over.
        }

        return frames;
    }
}
