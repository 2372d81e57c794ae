using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Text.Json;
using NzbDav.Server.Tests.Api;
using NzbDav.Testing.Hosting;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>
/// The real server as a child process (<c>dotnet NzbDav.dll</c>, the executable users run), on a
/// port picked by binding port 0, so a test can kill it like a crash or an OOM kill would.
/// </summary>
internal sealed class ServerProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _output = new();

    private ServerProcess(Process process, Uri address)
    {
        _process = process;
        Http = new HttpClient { BaseAddress = address };
    }

    public HttpClient Http { get; }

    /// <summary>What the server printed so far (for a failing test's output).</summary>
    public string Output => string.Join(Environment.NewLine, _output);

    public static Task<ServerProcess> StartAsync(string dataDirectory, int nntpPort, CancellationToken cancellationToken) =>
        StartAsync(dataDirectory, nntpPort, [], cancellationToken);

    /// <summary>As above, with <paramref name="extra"/> arguments after the defaults (a later one wins).</summary>
    public static async Task<ServerProcess> StartAsync(string dataDirectory, int nntpPort, IEnumerable<string> extra, CancellationToken cancellationToken)
    {
        var port = FreePort();
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            // Not the build output: the content root must not pick up an appsettings.json by accident.
            WorkingDirectory = dataDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in (string[])
        [
            Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"),
            "--urls", $"http://127.0.0.1:{port}",
            "--NzbDav:DataDirectory=" + dataDirectory,
            "--NzbDav:ApiKey=" + TestServer.ApiKey,
            "--Serilog:MinimumLevel:Default=Information",
            "--Serilog:MinimumLevel:Override:Microsoft=Warning",
            "--Serilog:WriteTo:0:Name=Console",
            "--Usenet:Providers:0:Name=mock", "--Usenet:Providers:0:Host=127.0.0.1",
            "--Usenet:Providers:0:Port=" + nntpPort, "--Usenet:Providers:0:UseTls=false",
            "--Usenet:Providers:0:MaxConnections=4",
            .. extra,
        ])
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet did not start");
        var server = new ServerProcess(process, new Uri($"http://127.0.0.1:{port}"));
        process.OutputDataReceived += (_, e) => server.Collect(e.Data);
        process.ErrorDataReceived += (_, e) => server.Collect(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        await server.WaitUntilHealthyAsync(cancellationToken);
        return server;
    }

    public Task<JsonElement> ApiAsync(string query, CancellationToken cancellationToken) =>
        GetJsonAsync($"/api?output=json&apikey={TestServer.ApiKey}&" + query, cancellationToken);

    /// <summary>Polls the history until it holds at least <paramref name="count"/> jobs; answers them all.</summary>
    public Task<JsonElement[]> WaitForHistoryAsync(int count, CancellationToken cancellationToken) =>
        JobHistory.WaitForHistoryAsync(GetJsonAsync, JobListApi.Sab(TestServer.ApiKey), count, cancellationToken);

    public async Task<string> AddFileAsync(byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        using var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(nzb);
        file.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
        form.Add(file, "name", fileName);
        using var response = await Http.PostAsync($"/api?mode=addfile&cat=tv&output=json&apikey={TestServer.ApiKey}", form, cancellationToken);
        response.EnsureSuccessStatusCode();
        var added = JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken)).RootElement;
        return added.GetProperty("nzo_ids")[0].GetString()!;
    }

    /// <summary>SIGKILL to the whole process tree: no shutdown code runs, as in a crash.</summary>
    public async Task KillAsync(CancellationToken cancellationToken)
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync(cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        Http.Dispose();
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private async Task<JsonElement> GetJsonAsync(string path, CancellationToken cancellationToken)
    {
        using var response = await Http.GetAsync(path, cancellationToken);
        response.EnsureSuccessStatusCode();
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken)).RootElement.Clone();
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private void Collect(string? line)
    {
        if (line is not null)
            _output.Enqueue(line);
    }

    private async Task WaitUntilHealthyAsync(CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(60));
        while (true)
        {
            if (_process.HasExited)
                throw new InvalidOperationException($"The server exited with {_process.ExitCode}:{Environment.NewLine}{Output}");
            try
            {
                using var response = await Http.GetAsync("/health", deadline.Token);
                if (response.IsSuccessStatusCode)
                    return;
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            catch (OperationCanceledException) when (deadline.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
            {
                throw new TimeoutException($"The server did not answer /health within 60 s:{Environment.NewLine}{Output}");
            }

            await Task.Delay(100, deadline.Token);
        }
    }
}
