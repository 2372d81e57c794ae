namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>Everything one <c>--test-webdav</c> run measured.</summary>
public sealed record WebDavBenchmarkReport
{
    /// <summary>Target: one whole-file WebDAV GET reaches this share of the tester's sequential MB/s.</summary>
    public const double RatioTarget = 0.8;

    /// <summary>Target: time to first byte of a ranged GET in the middle of a file, in ms.</summary>
    public const double RangedTtfbTargetMs = 100;

    /// <summary>Target: no read on a playing stream waits longer than this during the scan, in ms.</summary>
    public const double StreamWaitTargetMs = 1000;

    /// <summary>The WebDAV path of the measured file.</summary>
    public required string Path { get; init; }

    public required long FileSize { get; init; }

    /// <summary>The provider's MaxConnections, for the tester and the web host alike.</summary>
    public required int Connections { get; init; }

    /// <summary>From <c>addfile</c> until the job showed Completed in the history.</summary>
    public required TimeSpan Ingestion { get; init; }

    /// <summary>The first WebDAV request the new host served: a whole-file GET.</summary>
    public required GetMeasurement ColdGet { get; init; }

    /// <summary>The same GET again.</summary>
    public required GetMeasurement WarmGet { get; init; }

    /// <summary>256 KiB ranged GETs at 10, 50 and 90 % of the file, each on a fresh server-side stream.</summary>
    public required IReadOnlyList<RangedGet> Ranged { get; init; }

    public required ConcurrentLoadResult Concurrent { get; init; }

    /// <summary>The Plex-like probe phase; null when <c>--probe-files=0</c> skipped it.</summary>
    public ProbeResult? Probe { get; init; }

    /// <summary>The FullNzbTester's run on the same mock server and NZB (after the web host stopped).</summary>
    public required FullNzbTestReport Tester { get; init; }

    /// <summary>Every byte of every WebDAV read, compared with the mock's content.</summary>
    public required VerificationResult Verification { get; init; }

    /// <summary>The mock server's settings and counters over the whole run (web host and tester).</summary>
    public required MockServerReport Mock { get; init; }

    /// <summary>The host's <c>/metrics</c> scraped during the web phase, when <c>--scrape-metrics-ms</c> asked for it.</summary>
    public MetricsScrapes? Scrapes { get; init; }

    /// <summary>Dashboards open during the web phase (<c>--dashboards</c>) and the live updates they received in all.</summary>
    public int Dashboards { get; init; }

    public long DashboardFrames { get; init; }

    /// <summary>
    /// The host's traffic ledger against the mock's own count at the end of the web phase (every
    /// provider byte the ledger accounted to some consumer, and what the mock says it sent).
    /// </summary>
    public (long LedgerBytes, long ProviderBytes)? Accounting { get; init; }

    public double ColdRatio => Ratio(ColdGet);

    public double WarmRatio => Ratio(WarmGet);

    /// <summary>Every read got all its bytes, none wrong, and the tester passed too.</summary>
    public bool Passed => Tester.Passed && Verification.MismatchedReads == 0 && ColdGet.Bytes == FileSize && WarmGet.Bytes == FileSize;

    private double Ratio(GetMeasurement get) => Tester.SequentialMBps > 0 ? get.MBps / Tester.SequentialMBps : 0;
}
