namespace NzbDav.Tools.Testing;

/// <summary>Parses the arguments that follow <c>--test-full-nzb</c>.</summary>
public static class FullNzbTesterArguments
{
    /// <summary>The usage text printed with <c>--help</c> and after an argument error.</summary>
    public const string Usage = """
        Usage:
          NzbDav --test-full-nzb <file.nzb> [--json] [--Section:Key=value ...]
              Tests the read path against the providers in configuration section Usenet:Providers
              (appsettings.json, environment variables such as Usenet__Providers__0__Host, or
              arguments such as --Usenet:Providers:0:Host=news.example.com).
          NzbDav --test-full-nzb --mock-server [options] [--json]
              Starts the mock NNTP server in-process and tests a generated file on it.
              --size=MiB          generated file size in MiB (default 100)
              --latency=MS        simulated round trip per command (default 50)
              --jitter=MS         latency varies by ± this (default 10)
              --connections=N     provider MaxConnections, enforced by the mock (default 20)
              --stall=FRAC        fraction of article commands that hang 10 s, then drop (default 0)
              --segment-size=KiB  decoded bytes per article in KiB (default 700)
              --sweep-segments=N  also STAT-sweep a file of N small articles on the health-check pool,
                                  alone and during the sequential read (default 0 = no sweep)
          --scrape-metrics-ms=N  record metrics and collect them every N ms during the run (default 0: off)
          --disk-cache=DIR   streams keep a disk segment cache in a new, empty folder under DIR (removed
                             after the run): what the cache costs a first read; then the file is read
                             again by new streams from the disk alone (default: no disk cache)
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 passed, 1 the run failed (including wrong bytes), 2 bad arguments or configuration.
        """;

    private static readonly string[] MockOnly = ["--size", "--latency", "--jitter", "--connections", "--stall", "--segment-size", "--sweep-segments"];

    /// <summary>Parses <paramref name="args"/> (without the leading <c>--test-full-nzb</c>).</summary>
    /// <exception cref="FullNzbTesterUsageException">An unknown flag, a bad value, or a missing or conflicting NZB/mock choice.</exception>
    public static FullNzbTesterOptions Parse(IReadOnlyList<string> args)
    {
        var options = new FullNzbTesterOptions();
        var mockFlags = new List<string>();
        var arguments = new CommandArguments(args);
        while (arguments.MoveNext())
        {
            if (arguments.IsPositional)
            {
                options = options.NzbPath is null
                    ? options with { NzbPath = arguments.Current }
                    : throw new FullNzbTesterUsageException($"Only one NZB file can be tested; got '{options.NzbPath}' and '{arguments.Current}'.");
                continue;
            }

            options = arguments.Name switch
            {
                "--mock-server" => options with { MockServer = arguments.Flag() },
                "--json" => options with { Json = arguments.Flag() },
                "--help" or "-h" => options with { Help = true },
                "--size" => options with { SizeMiB = arguments.Integer(1, 1_000_000) },
                "--latency" => options with { LatencyMs = arguments.Integer(0, 600_000) },
                "--jitter" => options with { JitterMs = arguments.Integer(0, 600_000) },
                "--connections" => options with { Connections = arguments.Integer(1, 10_000) },
                "--stall" => options with { StallFraction = arguments.Fraction() },
                "--sweep-segments" => options with { SweepSegments = arguments.Integer(0, 1_000_000) },
                "--segment-size" => options with { SegmentSizeKiB = arguments.Integer(1, 64 * 1024) },
                "--scrape-metrics-ms" => options with { ScrapeMetricsMs = arguments.Integer(0, 3_600_000) },
                "--disk-cache" => options with { DiskCacheRoot = arguments.FullPath() },
                _ => throw arguments.Unknown(),
            };
            if (MockOnly.Contains(arguments.Name))
            {
                mockFlags.Add(arguments.Name);
            }
        }

        options = options with { ConfigurationArguments = arguments.Configuration };
        return options.Help ? options : Validate(options, mockFlags);
    }

    private static FullNzbTesterOptions Validate(FullNzbTesterOptions options, List<string> mockFlags)
    {
        if (options.MockServer && options.NzbPath is not null)
        {
            throw new FullNzbTesterUsageException($"Give either an NZB file or --mock-server, not both (got '{options.NzbPath}').");
        }

        if (!options.MockServer && options.NzbPath is null)
        {
            throw new FullNzbTesterUsageException("Give the NZB file to test, or --mock-server.");
        }

        if (!options.MockServer && mockFlags.Count > 0)
        {
            throw new FullNzbTesterUsageException($"{string.Join(", ", mockFlags)} only apply with --mock-server.");
        }

        return options;
    }
}
