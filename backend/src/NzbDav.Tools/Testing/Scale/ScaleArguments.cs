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
        var options = new ScaleOptions();
        var arguments = new CommandArguments(args);
        while (arguments.MoveNext())
        {
            options = arguments.Name switch
            {
                "--json" => options with { Json = arguments.Flag() },
                "--keep" => options with { Keep = arguments.Flag() },
                "--help" or "-h" => options with { Help = true },
                "--jobs" => options with { Jobs = arguments.Integers(10, 10_000_000, "size") },
                "--files-per-job" => options with { FilesPerJob = arguments.Integer(1, 1_000) },
                "--folder-size" => options with { FolderSize = arguments.Integer(1, 10_000_000) },
                "--queued" => options with { Queued = arguments.Integer(0, 100_000) },
                "--segments" => options with { VideoSegments = arguments.Integer(1, 1_000_000) },
                "--samples" => options with { Samples = arguments.Integer(1, 100_000) },
                "--ids-samples" => options with { IdsSamples = arguments.Integer(0, 100_000) },
                "--library-cache" => options with { LibraryCache = arguments.FullPath() },
                "--server" => options with { ServerPath = arguments.ExistingFile() },
                _ => throw arguments.Unknown(),
            };
        }

        return options with { ConfigurationArguments = arguments.Configuration };
    }
}
