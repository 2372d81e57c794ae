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
        var opened = Enumerable.Range(0, count).Select(_ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).ToArray();
        var readers = opened.Select(first => Task.Run(() => ReadAsync(http, first, stop.Token), CancellationToken.None)).ToArray();
        var clients = new DashboardClients(http, stop, readers);
        // "Open" means showing data: the measured phase starts once every dashboard has its first
        // frame, so what is measured is dashboards being open, not 50 of them connecting at once.
        try
        {
            await Task.WhenAll(opened.Select(o => o.Task)).WaitAsync(TimeSpan.FromSeconds(30), cancellationToken);
        }
        catch
        {
            await clients.DisposeAsync();
            throw;
        }

        return clients;
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

    private static async Task<long> ReadAsync(HttpClient http, TaskCompletionSource firstFrame, CancellationToken cancellationToken)
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
                {
                    frames++;
                    firstFrame.TrySetResult();
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The run is over.
        }
        catch (Exception error) when (error is HttpRequestException or IOException)
        {
            firstFrame.TrySetException(error);
            throw;
        }
        finally
        {
            firstFrame.TrySetCanceled(CancellationToken.None);
        }

        return frames;
    }
}
