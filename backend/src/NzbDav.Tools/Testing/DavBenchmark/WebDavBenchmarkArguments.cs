using System.Globalization;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// Parses the arguments that follow <c>--test-webdav</c>: its own flags here, the mock server's
/// flags, <c>--json</c> and <c>--Section:Key=value</c> through <see cref="FullNzbTesterArguments"/>
/// so both commands read them the same way.
/// </summary>
public static class WebDavBenchmarkArguments
{
    /// <summary>The usage text printed with <c>--help</c> and after an argument error.</summary>
    public const string Usage = """
        Usage:
          NzbDav --test-webdav --mock-server [options] [--json] [--Section:Key=value ...]
              Starts the mock NNTP server and the real web host in-process, ingests a generated file
              through the SABnzbd API and measures WebDAV reads of it over HTTP against the
              FullNzbTester's sequential figure on the same mock server.
              Mock server (as --test-full-nzb):
              --size=MiB  --latency=MS  --jitter=MS  --connections=N  --stall=FRAC  --segment-size=KiB
              Concurrent phase:
              --streams=N          whole-file GET streams playing at once (default 4)
              --stream-mbps=N      each stream's read rate in Mbit/s; 0 = as fast as possible (default 40)
              --stream-seconds=N   the streams play at least this long and until the scan ends (default 20)
              --propfinds=N        PROPFIND requests in the library scan (default 1000)
              --scan-concurrency=N scan requests in flight at once (default 4)
              --header-reads=N     GETs of a file's first 64 KiB mixed into the scan (default 100)
              --library-files=N    small files in a second job for the scan to walk (default 20)
              Plex-like probe phase (after the concurrent phase; every file is probed twice):
              --probe-files=N      generated files in a third job; 0 skips the phase (default 200)
              --probe-file-mib=N   size of each of them in MiB (default 64)
              --probe-concurrency=N files probed at once (default 4)
              --restart-between-scans  the server restarts between the two scans (its memory caches go;
                                   the database and the disk cache stay)
              --play-between-scans-mib=N  between the scans, N MiB of other files are played whole
                                   (a job of files of at most 1 GiB), as a week of watching would (default 0)
              Disk cache:
              --disk-cache-mib=N   a disk segment cache of N MiB in the host's data directory, as the
                                   image keeps under /config/cache (default 0: none)
              --distinct-files     each stream plays a file of its own (a job of N files of --size MiB)
                                   instead of all of them playing the benchmark file
              --greedy-streams=N   N more streams read as fast as the server sends, each a file of its own,
                                   through the concurrent phase; the provider's rate is reported per second
                                   (with --Usenet:Bandwidth:MaxBytesPerSecond=..., the cap's test) (default 0)
              --par2-repair-mib=N  a release of N MiB with 5 % PAR2 recovery loses 1 % of its articles and is
                                   repaired with PAR2 through the concurrent phase, beside the streams;
                                   needs Debian's par2 (default 0)
              --hostile-connections=N sockets held open through the concurrent phase: half idle, half
                                   sending a request header one byte every 300 ms (default 0)
              Streams held (instead of the phases above; the server runs as a child process):
              --streams-held=MBps  finds the most streams of this rate in MB/s (10^6 bytes), each on
                                   a file of its own, that all hold ≥ 95 % of it for --held-seconds
                                   with no read waiting > 1 s: N = --held-start, then + --held-step
                                   until a step does not hold or --held-max is reached
              --held-seconds=N     how long each step plays (default 60)
              --held-start=N       streams of the first step (default 10)
              --held-step=N        streams added per step (default 10)
              --held-max=N         the most streams tried (default 200)
              --held-nodes=N       nodes sharing one library and the provider's connections, the
                                   players spread over them (default 1; above 1 needs --held-postgres)
              --held-postgres=CS   a PostgreSQL server (Npgsql connection string, a role that may
                                   create databases): the nodes' library is a database made for the
                                   run there (and dropped after), and the store's transactions per
                                   stream start are reported
              Web UI:
              --dashboards=N       browsers with the dashboard's live feed open during the web phase (default 0)
              Metrics:
              --scrape-metrics-ms=N  GET the host's /metrics every N ms during the web phase (default 0: never)
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 every byte read was right, 1 the run failed (including wrong bytes), 2 bad arguments.
        """;

    /// <summary>Parses <paramref name="args"/> (without the leading <c>--test-webdav</c>).</summary>
    /// <exception cref="FullNzbTesterUsageException">An unknown flag, a bad value, or no <c>--mock-server</c>.</exception>
    public static WebDavBenchmarkOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var rest = new List<string>();
        var own = new Dictionary<string, int>(StringComparer.Ordinal);
        var distinct = false;
        var restart = false;
        string? postgres = null;
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i] ?? throw new FullNzbTesterUsageException("An argument is null.");
            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            var name = equals < 0 ? arg : arg[..equals];
            if (name == "--distinct-files")
            {
                distinct = equals < 0 ? true : throw new FullNzbTesterUsageException("--distinct-files takes no value.");
                continue;
            }

            if (name == "--held-postgres")
            {
                postgres = equals > 0 && arg.Length > equals + 1 ? arg[(equals + 1)..] : throw new FullNzbTesterUsageException("--held-postgres needs a connection string: --held-postgres=Host=…;Username=…;Password=….");
                continue;
            }

            if (name == "--restart-between-scans")
            {
                restart = equals < 0 ? true : throw new FullNzbTesterUsageException("--restart-between-scans takes no value.");
                continue;
            }

            if (Limits(name) is not { } limits)
            {
                rest.Add(arg);
                continue;
            }

            var value = equals >= 0 ? arg[(equals + 1)..]
                : i + 1 < args.Count && !args[i + 1].StartsWith("--", StringComparison.Ordinal) ? args[++i]
                : throw new FullNzbTesterUsageException($"{name} needs a value.");
            own[name] = int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) && parsed >= limits.Min && parsed <= limits.Max
                ? parsed
                : throw new FullNzbTesterUsageException($"{name} must be a whole number from {limits.Min} to {limits.Max}; got '{value}'.");
        }

        if (rest.Any(a => a is "--help" or "-h"))
        {
            return new WebDavBenchmarkOptions { Mock = new FullNzbTesterOptions { Help = true }, Help = true };
        }

        if (!rest.Contains("--mock-server"))
        {
            throw new FullNzbTesterUsageException("--test-webdav runs against the in-process mock server only: give --mock-server.");
        }

        var mock = FullNzbTesterArguments.Parse(rest);

        int Get(string name, int fallback) => own.TryGetValue(name, out var value) ? value : fallback;
        var defaults = new WebDavBenchmarkOptions { Mock = mock };
        var result = defaults with
        {
            DistinctFiles = distinct,
            GreedyStreams = Get("--greedy-streams", defaults.GreedyStreams),
            Par2RepairMiB = Get("--par2-repair-mib", defaults.Par2RepairMiB),
            RestartBetweenScans = restart,
            PlayBetweenScansMiB = Get("--play-between-scans-mib", defaults.PlayBetweenScansMiB),
            DiskCacheMiB = Get("--disk-cache-mib", defaults.DiskCacheMiB),
            StreamsHeldMBps = Get("--streams-held", defaults.StreamsHeldMBps),
            HeldSeconds = Get("--held-seconds", defaults.HeldSeconds),
            HeldStart = Get("--held-start", defaults.HeldStart),
            HeldStep = Get("--held-step", defaults.HeldStep),
            HeldMax = Get("--held-max", defaults.HeldMax),
            HeldNodes = Get("--held-nodes", defaults.HeldNodes),
            HeldPostgres = postgres,
            Streams = Get("--streams", defaults.Streams),
            StreamMbps = Get("--stream-mbps", defaults.StreamMbps),
            StreamSeconds = Get("--stream-seconds", defaults.StreamSeconds),
            Propfinds = Get("--propfinds", defaults.Propfinds),
            ScanConcurrency = Get("--scan-concurrency", defaults.ScanConcurrency),
            HeaderReads = Get("--header-reads", defaults.HeaderReads),
            LibraryFiles = Get("--library-files", defaults.LibraryFiles),
            ProbeFiles = Get("--probe-files", defaults.ProbeFiles),
            ProbeFileMiB = Get("--probe-file-mib", defaults.ProbeFileMiB),
            ProbeConcurrency = Get("--probe-concurrency", defaults.ProbeConcurrency),
            Dashboards = Get("--dashboards", defaults.Dashboards),
            HostileConnections = Get("--hostile-connections", defaults.HostileConnections),
        };
        if (result.StreamsHeldMBps > 0 && result.HeldStart > result.HeldMax)
            throw new FullNzbTesterUsageException($"--held-start ({result.HeldStart}) must not be above --held-max ({result.HeldMax}).");
        if (result.StreamsHeldMBps == 0 && (postgres is not null || own.Keys.Any(k => k.StartsWith("--held-", StringComparison.Ordinal))))
            throw new FullNzbTesterUsageException("--held-seconds, --held-start, --held-step, --held-max, --held-nodes and --held-postgres belong to --streams-held=MBps.");
        if (result.HeldNodes > 1 && postgres is null)
            throw new FullNzbTesterUsageException($"--held-nodes={result.HeldNodes} shares one library: give --held-postgres=<connection string of a PostgreSQL server>.");
        if ((result.RestartBetweenScans || result.PlayBetweenScansMiB > 0) && result.ProbeFiles == 0)
            throw new FullNzbTesterUsageException("--restart-between-scans and --play-between-scans-mib belong to the probe phase; --probe-files=0 skips it.");
        return result;
    }

    private static (int Min, int Max)? Limits(string name) => name switch
    {
        "--streams" => (0, 64),
        "--greedy-streams" => (0, 64),
        "--par2-repair-mib" => (0, 16_384),
        "--stream-mbps" => (0, 100_000),
        "--stream-seconds" => (0, 3600),
        "--propfinds" => (0, 1_000_000),
        "--scan-concurrency" => (1, 256),
        "--header-reads" => (0, 1_000_000),
        "--library-files" => (1, 1000),
        "--probe-files" => (0, 10_000),
        "--probe-file-mib" => (1, 65_536),
        "--probe-concurrency" => (1, 256),
        "--dashboards" => (0, 1000),
        "--hostile-connections" => (0, 20_000),
        "--streams-held" => (1, 1000),
        "--held-seconds" => (1, 3600),
        "--held-start" => (1, 1000),
        "--held-step" => (1, 1000),
        "--held-max" => (1, 1000),
        "--held-nodes" => (1, 8),
        "--disk-cache-mib" => (0, 16 * 1024 * 1024),
        "--play-between-scans-mib" => (0, 1024 * 1024),
        _ => null,
    };
}
