using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace NzbDav.Testing.Postgres;

/// <summary>
/// A PostgreSQL server of a test's own (Debian's binaries, a fresh cluster in a temporary directory,
/// trust authentication on 127.0.0.1 at a free port), which the test can stop and start again: the
/// shared server of <see cref="PostgresDatabase"/> must stay up for the other tests. Needs root
/// (the cluster runs as the postgres user, as tools/test.sh runs the suite).
/// </summary>
public sealed class PrivatePostgres : IAsyncDisposable
{
    private readonly string _root;
    private readonly string _bin;

    private PrivatePostgres(string root, string bin, int port)
    {
        _root = root;
        _bin = bin;
        Port = port;
    }

    public int Port { get; }

    public string ConnectionString => $"Host=127.0.0.1;Port={Port};Username=postgres;Database=postgres;Timeout=3;Command Timeout=5";

    private string Data => Path.Combine(_root, "data");

    public static async Task<PrivatePostgres> StartAsync(CancellationToken cancellationToken)
    {
        var version = Directory.GetDirectories("/usr/lib/postgresql").Select(Path.GetFileName).OrderBy(v => int.Parse(v!, System.Globalization.CultureInfo.InvariantCulture)).Last();
        var bin = $"/usr/lib/postgresql/{version}/bin";
        var root = Directory.CreateTempSubdirectory("nzbdav-pg-").FullName;
        await RunAsync("chown", ["postgres:postgres", root], cancellationToken).ConfigureAwait(false);
        await RunAsync("runuser", ["-u", "postgres", "--", bin + "/initdb", "-D", Path.Combine(root, "data"), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"], cancellationToken).ConfigureAwait(false);
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        var server = new PrivatePostgres(root, bin, port);
        await server.StartAgainAsync(cancellationToken).ConfigureAwait(false);
        return server;
    }

    /// <summary>Starts the server (again), waiting until it takes connections.</summary>
    public Task StartAgainAsync(CancellationToken cancellationToken) =>
        RunAsync("runuser", ["-u", "postgres", "--", _bin + "/pg_ctl", "-D", Data, "-w", "-l", Path.Combine(_root, "log"),
            "-o", $"-p {Port} -k {_root} -c listen_addresses=127.0.0.1 -c fsync=off", "start"], cancellationToken);

    /// <summary>Stops the server, ending every session (as an administrator's fast shutdown does).</summary>
    public Task StopAsync(CancellationToken cancellationToken) =>
        RunAsync("runuser", ["-u", "postgres", "--", _bin + "/pg_ctl", "-D", Data, "-w", "-m", "fast", "stop"], cancellationToken);

    public async ValueTask DisposeAsync()
    {
        try
        {
            await RunAsync("runuser", ["-u", "postgres", "--", _bin + "/pg_ctl", "-D", Data, "-m", "immediate", "stop"], CancellationToken.None).ConfigureAwait(false);
        }
        catch (InvalidOperationException)
        {
            // Already stopped.
        }

        Directory.Delete(_root, recursive: true);
    }

    private static async Task RunAsync(string file, IEnumerable<string> arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var error = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"{file} {string.Join(' ', start.ArgumentList)} exited with {process.ExitCode}: {await output.ConfigureAwait(false)}{await error.ConfigureAwait(false)}");
    }
}
