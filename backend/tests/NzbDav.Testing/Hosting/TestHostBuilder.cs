using Microsoft.Extensions.DependencyInjection;
using NzbDav.Server.Hosting;

namespace NzbDav.Testing.Hosting;

/// <summary>
/// Builds the real host (<see cref="NzbDavHost"/>, as the executable runs it) for a test: listening
/// on 127.0.0.1 at a free port, with its own data directory and API key, mock providers, settings
/// given as command-line arguments (later ones win, as on a real command line), and services a
/// test adds or replaces (a log sink, a stand-in). The areas' hosts (the SABnzbd test server, the
/// WebDAV one, the ingestion host) are thin layers over this.
/// </summary>
public sealed class TestHostBuilder
{
    private readonly List<string> _arguments;
    private readonly List<Action<IServiceCollection>> _services = [];
    private int _providers;

    public TestHostBuilder(string dataDirectory, string apiKey)
    {
        _arguments =
        [
            "--urls", "http://127.0.0.1:0",
            "--NzbDav:DataDirectory=" + dataDirectory,
            "--NzbDav:ApiKey=" + apiKey,
        ];
        _dataDirectory = dataDirectory;
    }

    private readonly string _dataDirectory;

    /// <summary>
    /// Set to <c>postgres</c>, every host whose test names no store keeps its library in PostgreSQL
    /// instead of SQLite (one database per data directory, so a restarted host finds its library):
    /// the whole suite run against the other store (docs/testing.md).
    /// </summary>
    public const string StoreVariable = "NZBDAV_TEST_STORE";

    /// <summary>The arguments the host is started with, in order.</summary>
    public IReadOnlyList<string> Arguments => _arguments;

    /// <summary>Whether the ingestion queue starts held (jobs are accepted and wait).</summary>
    public TestHostBuilder HoldQueue(bool hold)
    {
        _arguments.Add("--NzbDav:Queue:Hold=" + (hold ? "true" : "false"));
        return this;
    }

    /// <summary>Adds a plain-text provider on 127.0.0.1:<paramref name="port"/> (the next provider index).</summary>
    public TestHostBuilder WithProvider(int port, string name = "mock", int maxConnections = 4)
    {
        var prefix = "--Usenet:Providers:" + _providers++ + ":";
        _arguments.AddRange(
        [
            prefix + "Name=" + name, prefix + "Host=127.0.0.1",
            prefix + "Port=" + port, prefix + "UseTls=false",
            prefix + "MaxConnections=" + maxConnections,
        ]);
        return this;
    }

    public TestHostBuilder WithWebDavPassword(string password)
    {
        _arguments.Add("--NzbDav:WebDav:Password=" + password);
        return this;
    }

    /// <summary>More arguments, <c>--Section:Key=value</c> or any the host reads.</summary>
    public TestHostBuilder WithArguments(params IEnumerable<string> arguments)
    {
        _arguments.AddRange(arguments);
        return this;
    }

    /// <summary>Runs <paramref name="configure"/> after the host's own registrations; null adds nothing.</summary>
    public TestHostBuilder ConfigureServices(Action<IServiceCollection>? configure)
    {
        if (configure is not null)
            _services.Add(configure);
        return this;
    }

    /// <summary>Builds and starts the host; answers once it listens.</summary>
    public async Task<TestHost> StartAsync(CancellationToken cancellationToken)
    {
        var services = _services.ToArray();
        string[] arguments = [.. _arguments];
        if (Environment.GetEnvironmentVariable(StoreVariable) == "postgres" && !_arguments.Any(a => a.StartsWith("--Database:", StringComparison.OrdinalIgnoreCase)))
            arguments = [.. arguments, .. await Postgres.PostgresDatabase.ForDirectoryAsync(_dataDirectory, cancellationToken).ConfigureAwait(false)];
        var app = NzbDavHost.Build(arguments, collection =>
        {
            foreach (var configure in services)
                configure(collection);
        });
        try
        {
            await app.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await app.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        return new TestHost(app);
    }
}
