namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>What <c>--test-serve-cpu</c> was asked to do, as parsed by <see cref="ServeCpuArguments"/>.</summary>
public sealed record ServeCpuOptions
{
    /// <summary>The mock's generated file in MiB (2^20 bytes). Default 500.</summary>
    public int SizeMiB { get; init; } = 500;

    /// <summary>The mock's round trip per command. Default 5 ms: low enough that the server's CPU, not the wait, sets the pace.</summary>
    public int LatencyMs { get; init; } = 5;

    /// <summary>Each command's latency varies by ± this. Default 1 ms, so answers still arrive out of step.</summary>
    public int JitterMs { get; init; } = 1;

    /// <summary>The provider's MaxConnections, enforced by the mock too. Default 20.</summary>
    public int Connections { get; init; } = 20;

    /// <summary>
    /// Whole-file GETs before the measured ones, not in the figure. Default 4: a fresh process spends
    /// its first gigabytes re-compiling the hot path (tiered JIT, dynamic PGO), a cost paid once per
    /// process and not per gigabyte, so the figure is taken once that has settled.
    /// </summary>
    public int WarmupGets { get; init; } = 4;

    /// <summary>The server executable (an <c>NzbDav.dll</c>) to measure; default this build's own, e.g. another build's for a before/after comparison.</summary>
    public string? ServerPath { get; init; }

    /// <summary>Whole-file GETs measured, after the warm-up GETs. Default 3.</summary>
    public int Gets { get; init; } = 3;

    /// <summary>Of those GETs, at most this many in flight at once. Default 1 (one after another).</summary>
    public int Parallel { get; init; } = 1;

    /// <summary><c>--Section:Key=value</c> arguments, for the server's configuration (and this command's logging).</summary>
    public IReadOnlyList<string> ConfigurationArguments { get; init; } = [];

    /// <summary>Print the report as one JSON object on the last line as well.</summary>
    public bool Json { get; init; }

    /// <summary>Only print the usage text.</summary>
    public bool Help { get; init; }

    /// <summary>The generated file's length in bytes.</summary>
    public long FileSize => SizeMiB * 1024L * 1024L;
}
