namespace NzbDav.Tools.Testing.Soak;

/// <summary>What <c>--test-soak</c> was asked to do, as parsed by <see cref="SoakArguments"/>.</summary>
public sealed record SoakOptions
{
    /// <summary>How long the load runs, in seconds (ingestions finish after it). Default 600.</summary>
    public int DurationSeconds { get; init; } = 600;

    /// <summary>Concurrent WebDAV clients: half sequential players, one library scanner, the rest scrubbers. Default 10.</summary>
    public int Streams { get; init; } = 10;

    /// <summary>NZBs submitted through <c>addfile</c>, spread over the run. Default 20.</summary>
    public int Jobs { get; init; } = 20;

    /// <summary>Primary: fraction of article commands whose connection hangs <see cref="StallSeconds"/>, then drops. Default 0.05.</summary>
    public double StallFraction { get; init; } = 0.05;

    /// <summary>Primary: fraction of bodies cut midway by a reset. Default 0.05.</summary>
    public double DropFraction { get; init; } = 0.05;

    /// <summary>Primary: fraction of articles answered 430 (the backup has them all). Default 0.02.</summary>
    public double MissingFraction { get; init; } = 0.02;

    /// <summary>How long a stalled primary connection hangs. Default 10.</summary>
    public int StallSeconds { get; init; } = 10;

    /// <summary>How long the primary is down. Default 20; 0 = no outage.</summary>
    public int OutageSeconds { get; init; } = 20;

    /// <summary>When the outage starts, in seconds from the start of the load; null = centred in the run.</summary>
    public int? OutageAtSeconds { get; init; }

    /// <summary>MaxConnections of the primary (the mock counts its peak against it). Default 20.</summary>
    public int PrimaryConnections { get; init; } = 20;

    /// <summary>MaxConnections of the backup. Default 10.</summary>
    public int BackupConnections { get; init; } = 10;

    /// <summary>
    /// MaxConnections of a third provider, a block account holding every article; 0 (the default):
    /// none. Its bytes are a target: with the backup holding every article, a block account is never
    /// needed, so it must send nothing.
    /// </summary>
    public int BlockConnections { get; init; }

    /// <summary>Both mocks' simulated round trip, in ms. Default 30.</summary>
    public int LatencyMs { get; init; } = 30;

    /// <summary>Latency varies by ± this, in ms. Default 10.</summary>
    public int JitterMs { get; init; } = 10;

    /// <summary>Each player's rate in Mbit/s. Default 20 (a high-bitrate 1080p film).</summary>
    public int StreamMbps { get; init; } = 20;

    /// <summary>Files the players, scrubbers and scanner read, in one job ingested first. Default 10.</summary>
    public int LibraryFiles { get; init; } = 10;

    /// <summary>Size of each library file in MiB. Default 256.</summary>
    public int FileMiB { get; init; } = 256;

    /// <summary>Size of the one file of each ingested job in MiB. Default 4.</summary>
    public int JobFileMiB { get; init; } = 4;

    /// <summary>Decoded bytes per article in KiB. Default 700.</summary>
    public int SegmentSizeKiB { get; init; } = 700;

    /// <summary>Browsers with the dashboard's live feed open for the whole run. Default 2.</summary>
    public int Dashboards { get; init; } = 2;

    /// <summary>Target: no read waits longer than this outside the outage, in ms. Default 2000.</summary>
    public int MaxWaitMs { get; init; } = 2000;

    /// <summary>Target: the process's peak RSS, in MB of 10^6 bytes (as the issue states it). Default 400.</summary>
    public int MaxRssMB { get; init; } = 400;

    public bool Json { get; init; }

    /// <summary><c>--mock-server</c>: the soak runs only against its in-process mock providers, and says so.</summary>
    public bool MockServer { get; init; }

    public bool Help { get; init; }

    /// <summary><c>--Section:Key=value</c> overrides for the host's configuration and logging.</summary>
    public IReadOnlyList<string> ConfigurationArguments { get; init; } = [];

    /// <summary>Seconds from the start of the load at which the primary goes down.</summary>
    public int OutageStart => OutageAtSeconds ?? Math.Max(0, (DurationSeconds - OutageSeconds) / 2);

    public int Players => Math.Max(1, Streams / 2);

    public int Scanners => Streams >= 3 ? 1 : 0;

    public int Scrubbers => Math.Max(0, Streams - Players - Scanners);
}
