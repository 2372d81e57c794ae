using System.Globalization;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>Parses the arguments that follow <c>--test-scale</c>, in the same forms as the other test commands.</summary>
public static class ScaleArguments
{
    /// <summary>The usage text printed with <c>--help</c> and after an argument error.</summary>
    public const string Usage = """
        Usage:
          NzbDav --test-scale [options] [--json] [--Section:Key=value ...]
              For each library size: generates the library straight into a fresh data directory's
              database (the real migrations, then bulk inserts), starts the NzbDav server on it as a
              child process, and measures start time, PROPFIND Depth 1 of the biggest folder, the
              SABnzbd history and queue calls Sonarr makes, the web UI's History and Files calls,
              the database size and the server's RSS.
              --jobs=N[,N...]    library sizes in jobs (default 1000,10000,100000)
              --files-per-job=N  files of each completed job (default 10)
              --folder-size=N    completed jobs per category folder: the biggest folder (default 10000)
              --queued=N         jobs left in the queue (default 20)
              --segments=N       articles per video file, in its stored layout (default 400)
              --samples=N        timed calls of each kind per size, after one untimed first call (default 50)
              --ids-samples=N    timed PROPFINDs of /.ids/ (every file) per size; 0 skips them (default 3)
              --library-cache=DIR  keep each generated library in DIR and copy it into later runs
                                 (same options, same library) instead of generating it again
              --keep             leave each size's data directory in place (its path is logged)
              --server=PATH      the NzbDav.dll to measure (default this build's; e.g. another build's)
              --Section:Key=value  also passed to the server
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 measured, 1 the run failed, 2 bad arguments.
        """;

    /// <summary>Parses <paramref name="args"/> (without the leading <c>--test-scale</c>).</summary>
    /// <exception cref="FullNzbTesterUsageException">An unknown flag or a bad value.</exception>
    public static ScaleOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var options = new ScaleOptions();
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
                "--json" when inline is null => options with { Json = true },
                "--keep" when inline is null => options with { Keep = true },
                "--help" or "-h" => options with { Help = true },
                "--jobs" => options with { Jobs = Sizes(name, inline ?? Next(args, ref i, name)) },
                "--files-per-job" => options with { FilesPerJob = Value(1, 1_000) },
                "--folder-size" => options with { FolderSize = Value(1, 10_000_000) },
                "--queued" => options with { Queued = Value(0, 100_000) },
                "--segments" => options with { VideoSegments = Value(1, 1_000_000) },
                "--samples" => options with { Samples = Value(1, 100_000) },
                "--ids-samples" => options with { IdsSamples = Value(0, 100_000) },
                "--library-cache" => options with { LibraryCache = Path.GetFullPath(inline ?? Next(args, ref i, name)) },
                "--server" => options with { ServerPath = ExistingFile(name, inline ?? Next(args, ref i, name)) },
                "--keep" => throw new FullNzbTesterUsageException($"--keep takes no value (got '{inline}')."),
                "--json" => throw new FullNzbTesterUsageException($"--json takes no value (got '{inline}')."),
                _ => throw new FullNzbTesterUsageException($"Unknown argument '{arg}'."),
            };
        }

        return options with { ConfigurationArguments = configuration };
    }

    private static List<int> Sizes(string name, string value)
    {
        var sizes = value.Split(',').Select(v => Integer(name, v.Trim(), 10, 10_000_000)).ToList();
        return sizes.Distinct().Count() == sizes.Count
            ? sizes
            : throw new FullNzbTesterUsageException($"{name} lists a size twice: '{value}'.");
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
