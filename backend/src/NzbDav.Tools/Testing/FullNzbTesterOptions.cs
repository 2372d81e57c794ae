namespace NzbDav.Tools.Testing;

/// <summary>What <c>--test-full-nzb</c> was asked to do, as parsed by <see cref="FullNzbTesterArguments"/>.</summary>
public sealed record FullNzbTesterOptions
{
    /// <summary>The NZB to test against the configured providers; null with <see cref="MockServer"/>.</summary>
    public string? NzbPath { get; init; }

    /// <summary>Start the mock NNTP server in-process and test a generated file on it.</summary>
    public bool MockServer { get; init; }

    /// <summary>Mock: generated file size in MiB (2^20 bytes), like the mock server's own <c>--size</c>.</summary>
    public int SizeMiB { get; init; } = 100;

    /// <summary>Mock: simulated round trip per command, in milliseconds.</summary>
    public int LatencyMs { get; init; } = 50;

    /// <summary>Mock: each command's latency varies uniformly by ± this many milliseconds.</summary>
    public int JitterMs { get; init; } = 10;

    /// <summary>Mock: the provider's MaxConnections (also enforced by the mock server).</summary>
    public int Connections { get; init; } = 20;

    /// <summary>Mock: fraction of article commands whose connection hangs, then drops.</summary>
    public double StallFraction { get; init; }

    /// <summary>Mock: decoded bytes per article in KiB (2^10 bytes).</summary>
    public int SegmentSizeKiB { get; init; } = 700;

    /// <summary>
    /// Mock: also post a file of this many 512-byte articles (not in the NZB) and STAT-sweep it as a
    /// health check does: once alone (rate, time to check it all), then over and over while the
    /// sequential read runs, so the read times show what a sweep costs a player. 0 = no sweep.
    /// </summary>
    public int SweepSegments { get; init; }

    /// <summary>
    /// Scrape the metrics every this many milliseconds during the run (0 = metrics off). The tester
    /// then records into the same instruments as the server and collects the registry as
    /// <c>/metrics</c> does; <c>--test-webdav</c> GETs the host's <c>/metrics</c>.
    /// </summary>
    public int ScrapeMetricsMs { get; init; }

    /// <summary>With a folder, streams keep a disk segment cache in a new empty folder under it (removed after the run).</summary>
    public string? DiskCacheRoot { get; init; }

    /// <summary>Print the report as one JSON object on the last line as well.</summary>
    public bool Json { get; init; }

    /// <summary>Only print the usage text.</summary>
    public bool Help { get; init; }

    /// <summary>
    /// <c>--Section:Key=value</c> arguments, handed to the configuration (for example
    /// <c>--Usenet:Providers:0:Host=news.example.com</c> or <c>--Serilog:MinimumLevel:Default=Warning</c>).
    /// </summary>
    public IReadOnlyList<string> ConfigurationArguments { get; init; } = [];
}
