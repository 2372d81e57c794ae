using System.Globalization;

namespace NzbDav.Tools.Testing.Crash;

/// <summary>What <c>--test-crash</c> runs.</summary>
public sealed record CrashOptions
{
    public int Cycles { get; init; } = 20;

    public int Seed { get; init; } = 1;

    /// <summary>Run the managed rclone mount and check that it comes back after every kill.</summary>
    public bool Mount { get; init; }

    /// <summary>Longest time the clients work before the kill, in ms (each cycle draws from <see cref="MinWorkMs"/> up to this).</summary>
    public int MaxWorkMs { get; init; } = 5000;

    public int MinWorkMs { get; init; } = 200;

    /// <summary>The mock's round trip per command, in ms.</summary>
    public int LatencyMs { get; init; } = 40;

    public string? ServerPath { get; init; }

    /// <summary>Keep the run's folder (database, logs) and print where it is.</summary>
    public bool Keep { get; init; }

    public bool Json { get; init; }

    public bool Help { get; init; }

    public IReadOnlyList<string> ConfigurationArguments { get; init; } = [];
}

/// <summary>Parses the arguments that follow <c>--test-crash</c>, in the same forms as the other test commands.</summary>
public static class CrashArguments
{
    public const string Usage = """
        Usage:
          NzbDav --test-crash [options] [--json] [--Section:Key=value ...]
              Starts the NzbDav server as a child process (an in-process mock NNTP server is its
              provider) and, cycle after cycle, kills it with SIGKILL at a random moment: during its
              start, or while clients add NZBs (addfile), save settings on the web UI's Settings API
              and delete jobs (queue delete, history delete, WebDAV DELETE). After each kill it opens
              the database read-only (PRAGMA integrity_check, the jobs, the settings), starts the
              server again and checks that it starts, that every NZB the API accepted is there
              exactly once and nothing deleted came back, that no job ran twice, that the settings
              saved together hold the old or the new value, and (--mount) that the managed mount is
              back and the orphaned rclone gone. At the end every job left must complete.
              --cycles=N      kills (default 20)
              --seed=N        seed of every random draw: kill moments, sizes, clients' choices (default 1)
              --mount         run the managed rclone mount (needs rclone and FUSE)
              --work-ms=MS    longest time the clients work before a kill (default 5000)
              --min-work-ms=MS  shortest time (default 200)
              --latency=MS    the mock provider's round trip per command (default 40)
              --server=PATH   the NzbDav.dll to run (default this build's)
              --keep          keep the run's folder (database, server output) and print its path
              --Section:Key=value  also passed to the server
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 nothing lost, duplicated or broken; 1 a check failed or the run could not run; 2 bad arguments.
        """;

    /// <exception cref="FullNzbTesterUsageException">An unknown flag or a bad value.</exception>
    public static CrashOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var options = new CrashOptions();
        var configuration = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i] ?? throw new FullNzbTesterUsageException("An argument is null.");
            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            var name = equals < 0 ? arg : arg[..equals];
            var inline = equals < 0 ? null : arg[(equals + 1)..];
            if (name.StartsWith("--", StringComparison.Ordinal) && name.Contains(':', StringComparison.Ordinal))
            {
                configuration.Add(inline is null ? $"{name}={Next(args, ref i, name)}" : arg);
                continue;
            }

            int Value(int min, int max) => Integer(name, inline ?? Next(args, ref i, name), min, max);
            options = name switch
            {
                "--json" or "--mount" or "--keep" when inline is not null => throw new FullNzbTesterUsageException($"{name} takes no value (got '{inline}')."),
                "--json" => options with { Json = true },
                "--mount" => options with { Mount = true },
                "--keep" => options with { Keep = true },
                "--help" or "-h" => options with { Help = true },
                "--cycles" => options with { Cycles = Value(1, 10_000) },
                "--seed" => options with { Seed = Value(0, int.MaxValue) },
                "--work-ms" => options with { MaxWorkMs = Value(200, 600_000) },
                "--min-work-ms" => options with { MinWorkMs = Value(0, 600_000) },
                "--latency" => options with { LatencyMs = Value(0, 10_000) },
                "--server" => options with { ServerPath = ExistingFile(name, inline ?? Next(args, ref i, name)) },
                _ => throw new FullNzbTesterUsageException($"Unknown argument '{arg}'."),
            };
        }

        if (options.MinWorkMs > options.MaxWorkMs)
            throw new FullNzbTesterUsageException($"--min-work-ms ({options.MinWorkMs}) cannot exceed --work-ms ({options.MaxWorkMs}).");
        return options with { ConfigurationArguments = configuration };
    }

    private static string Next(IReadOnlyList<string> args, ref int i, string name) =>
        i + 1 < args.Count && !args[i + 1].StartsWith("--", StringComparison.Ordinal)
            ? args[++i]
            : throw new FullNzbTesterUsageException($"{name} needs a value.");

    private static string ExistingFile(string name, string value) =>
        File.Exists(value) ? Path.GetFullPath(value) : throw new FullNzbTesterUsageException($"{name}: there is no file '{value}'.");

    private static int Integer(string name, string value, int min, int max) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) && parsed >= min && parsed <= max
            ? parsed
            : throw new FullNzbTesterUsageException($"{name} must be a whole number from {min} to {max}; got '{value}'.");
}
