namespace NzbDav.Tools.Testing.Soak;

/// <summary>Parses the arguments that follow <c>--test-soak</c>.</summary>
public static class SoakArguments
{
    /// <summary>The usage text printed with <c>--help</c> and after an argument error.</summary>
    public const string Usage = """
        Usage:
          NzbDav --test-soak --mock-server [options] [--json] [--Section:Key=value ...]
              Starts two mock NNTP providers (a faulty primary and a clean backup with every article)
              and the real server as a child process, then for the whole duration: sequential players,
              scrubbers and a Plex-like scanner read over WebDAV (every byte compared with the true
              content), NZBs are submitted through addfile, dashboards keep the live feed open, and
              the primary goes down for a while in the middle. PASS/FAIL per target.
              --duration=S         seconds of load (default 600)
              --streams=N          concurrent WebDAV clients: N/2 players, 1 scanner, the rest scrubbers (default 10)
              --jobs=N             NZBs ingested through addfile, spread over the run (default 20)
              --stall=FRAC         primary: article commands that hang, then drop (default 0.05)
              --stall-seconds=S    how long a stall hangs (default 10)
              --drop=FRAC          primary: bodies cut midway by a reset (default 0.05)
              --missing=FRAC       primary: articles answered 430 (default 0.02)
              --outage-seconds=S   the primary is down this long; 0 = never (default 20)
              --outage-at=S        ... starting this many seconds into the run (default: centred)
              --primary-connections=N  --backup-connections=N   MaxConnections (defaults 20, 10)
              --block-connections=N  a third provider, a block account with every article (default 0: none);
                                   target: it sends 0 bytes (the backup has every article)
              --latency=MS  --jitter=MS   both mocks (defaults 30, 10)
              --stream-mbps=N      each player's rate (default 20)
              --library-files=N  --file-mib=N   what the streams read (defaults 10 files of 256 MiB)
              --job-file-mib=N     each ingested job's file (default 4)
              --segment-size=KiB   decoded bytes per article (default 700)
              --dashboards=N       live feeds open for the whole run (default 2)
              --max-wait-ms=N      target: longest read wait outside the outage (default 2000)
              --max-rss-mb=N       target: peak RSS of the process in MB of 10^6 bytes (default 400)
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 every target met, 1 a target missed or the run failed, 2 bad arguments.
        """;

    /// <summary>Parses <paramref name="args"/> (without the leading <c>--test-soak</c>).</summary>
    /// <exception cref="FullNzbTesterUsageException">An unknown flag, a bad value, or no <c>--mock-server</c>.</exception>
    public static SoakOptions Parse(IReadOnlyList<string> args)
    {
        var options = new SoakOptions();
        var arguments = new CommandArguments(args);
        while (arguments.MoveNext())
        {
            options = arguments.Name switch
            {
                "--mock-server" => options with { MockServer = arguments.Flag() },
                "--json" => options with { Json = arguments.Flag() },
                "--help" or "-h" => options with { Help = true },
                "--duration" => options with { DurationSeconds = arguments.Integer(10, 86_400) },
                "--streams" => options with { Streams = arguments.Integer(1, 64) },
                "--jobs" => options with { Jobs = arguments.Integer(0, 1000) },
                "--stall" => options with { StallFraction = arguments.Fraction() },
                "--stall-seconds" => options with { StallSeconds = arguments.Integer(1, 600) },
                "--drop" => options with { DropFraction = arguments.Fraction() },
                "--missing" => options with { MissingFraction = arguments.Fraction() },
                "--outage-seconds" => options with { OutageSeconds = arguments.Integer(0, 3600) },
                "--outage-at" => options with { OutageAtSeconds = arguments.Integer(0, 86_400) },
                "--primary-connections" => options with { PrimaryConnections = arguments.Integer(1, 1000) },
                "--backup-connections" => options with { BackupConnections = arguments.Integer(1, 1000) },
                "--block-connections" => options with { BlockConnections = arguments.Integer(0, 1000) },
                "--latency" => options with { LatencyMs = arguments.Integer(0, 60_000) },
                "--jitter" => options with { JitterMs = arguments.Integer(0, 60_000) },
                "--stream-mbps" => options with { StreamMbps = arguments.Integer(1, 100_000) },
                "--library-files" => options with { LibraryFiles = arguments.Integer(1, 1000) },
                "--file-mib" => options with { FileMiB = arguments.Integer(1, 65_536) },
                "--job-file-mib" => options with { JobFileMiB = arguments.Integer(1, 4096) },
                "--segment-size" => options with { SegmentSizeKiB = arguments.Integer(1, 64 * 1024) },
                "--dashboards" => options with { Dashboards = arguments.Integer(0, 100) },
                "--max-wait-ms" => options with { MaxWaitMs = arguments.Integer(1, 3_600_000) },
                "--max-rss-mb" => options with { MaxRssMB = arguments.Integer(1, 1_000_000) },
                _ => throw arguments.Unknown(),
            };
        }

        options = options with { ConfigurationArguments = arguments.Configuration };
        if (options.Help)
            return options;
        if (!options.MockServer)
            throw new FullNzbTesterUsageException("--test-soak runs against the in-process mock servers only: give --mock-server.");
        if (options.OutageSeconds > 0 && options.OutageStart + options.OutageSeconds > options.DurationSeconds)
        {
            throw new FullNzbTesterUsageException(
                $"The outage ({options.OutageSeconds} s from {options.OutageStart} s) must end within --duration={options.DurationSeconds}.");
        }

        return options;
    }
}
