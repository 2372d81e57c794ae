using System.Globalization;

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
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 passed, 1 the run failed (including wrong bytes), 2 bad arguments or configuration.
        """;

    private static readonly string[] MockOnly = ["--size", "--latency", "--jitter", "--connections", "--stall", "--segment-size", "--sweep-segments"];

    /// <summary>Parses <paramref name="args"/> (without the leading <c>--test-full-nzb</c>).</summary>
    /// <exception cref="FullNzbTesterUsageException">An unknown flag, a bad value, or a missing or conflicting NZB/mock choice.</exception>
    public static FullNzbTesterOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var options = new FullNzbTesterOptions();
        var configuration = new List<string>();
        var mockFlags = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i] ?? throw new FullNzbTesterUsageException("An argument is null.");
            if (!arg.StartsWith('-'))
            {
                options = options.NzbPath is null
                    ? options with { NzbPath = arg }
                    : throw new FullNzbTesterUsageException($"Only one NZB file can be tested; got '{options.NzbPath}' and '{arg}'.");
                continue;
            }

            var (name, inlineValue) = Split(arg);
            if (name.Contains(':', StringComparison.Ordinal))
            {
                configuration.Add(inlineValue is null ? $"{name}={Next(args, ref i, name)}" : arg);
                continue;
            }

            string Value() => inlineValue ?? Next(args, ref i, name);
            switch (name)
            {
                case "--mock-server": options = options with { MockServer = true }; NoValue(name, inlineValue); break;
                case "--json": options = options with { Json = true }; NoValue(name, inlineValue); break;
                case "--help" or "-h": options = options with { Help = true }; break;
                case "--size": options = options with { SizeMiB = Integer(name, Value(), 1, 1_000_000) }; break;
                case "--latency": options = options with { LatencyMs = Integer(name, Value(), 0, 600_000) }; break;
                case "--jitter": options = options with { JitterMs = Integer(name, Value(), 0, 600_000) }; break;
                case "--connections": options = options with { Connections = Integer(name, Value(), 1, 10_000) }; break;
                case "--stall": options = options with { StallFraction = Fraction(name, Value()) }; break;
                case "--sweep-segments": options = options with { SweepSegments = Integer(name, Value(), 0, 1_000_000) }; break;
                case "--segment-size": options = options with { SegmentSizeKiB = Integer(name, Value(), 1, 64 * 1024) }; break;
                case "--scrape-metrics-ms": options = options with { ScrapeMetricsMs = Integer(name, Value(), 0, 3_600_000) }; break;
                default: throw new FullNzbTesterUsageException($"Unknown argument '{arg}'.");
            }

            if (MockOnly.Contains(name))
            {
                mockFlags.Add(name);
            }
        }

        options = options with { ConfigurationArguments = configuration };
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

    private static (string Name, string? Value) Split(string arg)
    {
        var equals = arg.IndexOf('=', StringComparison.Ordinal);
        return equals < 0 ? (arg, null) : (arg[..equals], arg[(equals + 1)..]);
    }

    private static string Next(IReadOnlyList<string> args, ref int i, string name) =>
        i + 1 < args.Count && !args[i + 1].StartsWith("--", StringComparison.Ordinal)
            ? args[++i]
            : throw new FullNzbTesterUsageException($"{name} needs a value.");

    private static void NoValue(string name, string? value)
    {
        if (value is not null)
        {
            throw new FullNzbTesterUsageException($"{name} takes no value (got '{value}').");
        }
    }

    private static int Integer(string name, string value, int min, int max) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) && parsed >= min && parsed <= max
            ? parsed
            : throw new FullNzbTesterUsageException($"{name} must be a whole number from {min} to {max}; got '{value}'.");

    private static double Fraction(string name, string value) =>
        double.TryParse(value, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var parsed) && parsed is >= 0 and < 1
            ? parsed
            : throw new FullNzbTesterUsageException($"{name} must be a fraction from 0 up to (not including) 1, like 0.01; got '{value}'.");
}
