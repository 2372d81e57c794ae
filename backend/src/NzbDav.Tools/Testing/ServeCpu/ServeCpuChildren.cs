using System.Globalization;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// Starts the two children of a run from this very build's output folder: the mock NNTP server
/// executable (which the build copies beside NzbDav.dll) and the server itself, <c>dotnet NzbDav.dll</c>.
/// </summary>
internal static class ServeCpuChildren
{
    private const string MockReady = "MOCK-NNTP-READY ";
    private const string Listening = "Now listening on: ";
    private static readonly TimeSpan MockDeadline = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan ServerDeadline = TimeSpan.FromSeconds(60);

    /// <summary>The mock with one generated file of the run's size; its NZB is written to <paramref name="nzbPath"/>.</summary>
    public static async Task<(ChildProcess Mock, int Port)> StartMockAsync(ServeCpuOptions options, string workingDirectory, string nzbPath, CancellationToken cancellationToken)
    {
        string[] arguments =
        [
            "--size", Text(options.SizeMiB),
            "--latency", Text(options.LatencyMs),
            "--jitter", Text(options.JitterMs),
            "--max-connections", Text(options.Connections),
            "--port", "0",
            "--nzb-out", nzbPath,
        ];
        var (mock, ready) = await ChildProcess.StartAsync(
            "the mock NNTP server", Path.Combine(AppContext.BaseDirectory, "MockNntpServer.dll"), arguments, workingDirectory,
            static line => line.StartsWith(MockReady, StringComparison.Ordinal) ? line : null, MockDeadline, cancellationToken);
        var port = ready.Split(' ').FirstOrDefault(p => p.StartsWith("port=", StringComparison.Ordinal))?["port=".Length..];
        if (port is null || !int.TryParse(port, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed))
        {
            await mock.DisposeAfterFailureAsync();
            throw new InvalidDataException($"The mock NNTP server announced no port: '{ready}'.");
        }

        return (mock, parsed);
    }

    /// <summary>The server on a port of its own choosing (read back from its log), with the mock as its only provider.</summary>
    public static async Task<(ChildProcess Server, Uri Root)> StartServerAsync(
        ServeCpuOptions options, int nntpPort, string dataDirectory, ServeCpuCredentials credentials, CancellationToken cancellationToken)
    {
        string[] arguments =
        [
            // The caller's overrides first: the settings the measurement depends on come later and win.
            .. options.ConfigurationArguments,
            "--urls=http://127.0.0.1:0",
            "--NzbDav:DataDirectory=" + dataDirectory,
            "--NzbDav:ApiKey=" + credentials.ApiKey,
            "--NzbDav:WebDav:User=" + credentials.User,
            "--NzbDav:WebDav:Password=" + credentials.Password,
            "--NzbDav:Ui:AdminUser=" + credentials.User,
            "--NzbDav:Ui:AdminPassword=" + credentials.Password,
            "--Usenet:Providers:0:Name=mock",
            "--Usenet:Providers:0:Host=127.0.0.1",
            "--Usenet:Providers:0:Port=" + Text(nntpPort),
            "--Usenet:Providers:0:UseTls=false",
            "--Usenet:Providers:0:MaxConnections=" + Text(options.Connections),
            // Quiet, so logging costs the server next to nothing, but the address it listens on is printed.
            "--Serilog:WriteTo:0:Name=Console",
            "--Serilog:MinimumLevel:Default=Warning",
            "--Serilog:MinimumLevel:Override:Microsoft.Hosting.Lifetime=Information",
            "--Serilog:MinimumLevel:Override:Microsoft.AspNetCore.DataProtection=Error",
        ];
        // The data directory is the content root too, so no appsettings.json is picked up by accident.
        var (server, url) = await ChildProcess.StartAsync(
            "the NzbDav server", options.ServerPath ?? Path.Combine(AppContext.BaseDirectory, "NzbDav.dll"), arguments, dataDirectory,
            ListeningUrl, ServerDeadline, cancellationToken);
        return (server, new UriBuilder(url) { Path = "/" }.Uri);
    }

    /// <summary>The address in the host's "Now listening on: http://127.0.0.1:NNNNN" line.</summary>
    internal static string? ListeningUrl(string line)
    {
        var at = line.IndexOf(Listening, StringComparison.Ordinal);
        if (at < 0)
            return null;
        var url = line[(at + Listening.Length)..].Trim();
        return url.StartsWith("http://", StringComparison.OrdinalIgnoreCase) && Uri.TryCreate(url, UriKind.Absolute, out _) ? url : null;
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
