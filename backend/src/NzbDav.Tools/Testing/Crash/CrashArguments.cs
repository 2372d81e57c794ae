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
        var options = new CrashOptions();
        var arguments = new CommandArguments(args);
        while (arguments.MoveNext())
        {
            options = arguments.Name switch
            {
                "--json" => options with { Json = arguments.Flag() },
                "--mount" => options with { Mount = arguments.Flag() },
                "--keep" => options with { Keep = arguments.Flag() },
                "--help" or "-h" => options with { Help = true },
                "--cycles" => options with { Cycles = arguments.Integer(1, 10_000) },
                "--seed" => options with { Seed = arguments.Integer(0, int.MaxValue) },
                "--work-ms" => options with { MaxWorkMs = arguments.Integer(200, 600_000) },
                "--min-work-ms" => options with { MinWorkMs = arguments.Integer(0, 600_000) },
                "--latency" => options with { LatencyMs = arguments.Integer(0, 10_000) },
                "--server" => options with { ServerPath = arguments.ExistingFile() },
                _ => throw arguments.Unknown(),
            };
        }

        if (options.MinWorkMs > options.MaxWorkMs)
            throw new FullNzbTesterUsageException($"--min-work-ms ({options.MinWorkMs}) cannot exceed --work-ms ({options.MaxWorkMs}).");
        return options with { ConfigurationArguments = arguments.Configuration };
    }
}
