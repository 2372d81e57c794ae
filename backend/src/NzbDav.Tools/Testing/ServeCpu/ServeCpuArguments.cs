namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>Parses the arguments that follow <c>--test-serve-cpu</c>, in the same forms as the other test commands.</summary>
public static class ServeCpuArguments
{
    /// <summary>The usage text printed with <c>--help</c> and after an argument error.</summary>
    public const string Usage = """
        Usage:
          NzbDav --test-serve-cpu [options] [--json] [--Section:Key=value ...]
              Starts the mock NNTP server and the NzbDav server as two child processes, ingests a
              generated file through the SABnzbd API, and measures the CPU time the server process
              alone spends serving whole-file WebDAV GETs of it (this process is the HTTP client).
              --size=MiB         generated file size in MiB (default 500)
              --latency=MS       the mock's round trip per command (default 5: CPU-bound, not latency-bound)
              --jitter=MS        latency varies by ± this (default 1)
              --connections=N    provider MaxConnections, enforced by the mock (default 20)
              --warmup-gets=N    whole-file GETs first, not measured (default 4: until the JIT has settled)
              --gets=N           whole-file GETs measured after the warm-up (default 3)
              --parallel=K       of those, at most K in flight at once (default 1: one after another)
              --server=PATH      the NzbDav.dll to measure (default this build's; e.g. another build's)
              --Section:Key=value  also passed to the server, e.g. --Streaming:ConnectionsPerStream=8
          --json   also print the report as one JSON object on the last line
        Exit codes: 0 measured, 1 the run failed, 2 bad arguments.
        """;

    /// <summary>Parses <paramref name="args"/> (without the leading <c>--test-serve-cpu</c>).</summary>
    /// <exception cref="FullNzbTesterUsageException">An unknown flag or a bad value.</exception>
    public static ServeCpuOptions Parse(IReadOnlyList<string> args)
    {
        var options = new ServeCpuOptions();
        var arguments = new CommandArguments(args);
        while (arguments.MoveNext())
        {
            options = arguments.Name switch
            {
                "--json" => options with { Json = arguments.Flag() },
                "--help" or "-h" => options with { Help = true },
                "--size" => options with { SizeMiB = arguments.Integer(1, 1_000_000) },
                "--latency" => options with { LatencyMs = arguments.Integer(0, 600_000) },
                "--jitter" => options with { JitterMs = arguments.Integer(0, 600_000) },
                "--connections" => options with { Connections = arguments.Integer(1, 10_000) },
                "--gets" => options with { Gets = arguments.Integer(1, 10_000) },
                "--warmup-gets" => options with { WarmupGets = arguments.Integer(1, 10_000) },
                "--server" => options with { ServerPath = arguments.ExistingFile() },
                "--parallel" => options with { Parallel = arguments.Integer(1, 256) },
                _ => throw arguments.Unknown(),
            };
        }

        if (!options.Help && options.Parallel > options.Gets)
            throw new FullNzbTesterUsageException($"--parallel ({options.Parallel}) cannot exceed --gets ({options.Gets}): every GET in flight is a measured one.");
        return options with { ConfigurationArguments = arguments.Configuration };
    }
}
