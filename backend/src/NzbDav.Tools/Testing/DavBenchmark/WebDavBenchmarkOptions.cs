namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>What <c>--test-webdav</c> was asked to do, as parsed by <see cref="WebDavBenchmarkArguments"/>.</summary>
public sealed record WebDavBenchmarkOptions
{
    /// <summary>The mock server's settings (size, latency, jitter, connections, stall, segment size), JSON and configuration overrides.</summary>
    public required FullNzbTesterOptions Mock { get; init; }

    /// <summary>Concurrent whole-file GET streams while the library is scanned. Default 4.</summary>
    public int Streams { get; init; } = 4;

    /// <summary>Rate each stream reads at, in Mbit/s (10^6 bits); 0 reads as fast as the server sends. Default 40 (what Plex asks for a high-bitrate 1080p file).</summary>
    public int StreamMbps { get; init; } = 40;

    /// <summary>The streams play at least this long, and until the scan is over. Default 20.</summary>
    public int StreamSeconds { get; init; } = 20;

    /// <summary>PROPFIND requests in the scan (Depth 1 on folders, Depth 0 on files). Default 1,000.</summary>
    public int Propfinds { get; init; } = 1000;

    /// <summary>Requests of the scan in flight at once, as a media server's scanner threads. Default 4.</summary>
    public int ScanConcurrency { get; init; } = 4;

    /// <summary>Header reads (a GET of the first 64 KiB of a file) mixed into the scan. Default 100.</summary>
    public int HeaderReads { get; init; } = 100;

    /// <summary>Small files in a second job, so the scan walks a tree and reads headers of many files. Default 20.</summary>
    public int LibraryFiles { get; init; } = 20;

    /// <summary>Files of the Plex-like probe phase, each probed in both of its scans; 0 skips the phase. Default 200.</summary>
    public int ProbeFiles { get; init; } = 200;

    /// <summary>Size of each probed file in MiB. Default 64.</summary>
    public int ProbeFileMiB { get; init; } = 64;

    /// <summary>Files of the probe phase in flight at once, as a scanner's threads. Default 4.</summary>
    public int ProbeConcurrency { get; init; } = 4;

    /// <summary>The server restarts between the probe phase's two scans (memory caches gone, database and disk cache kept).</summary>
    public bool RestartBetweenScans { get; init; }

    /// <summary>MiB of other files played whole between the probe phase's scans (a job of 1 GiB files); 0 plays none.</summary>
    public int PlayBetweenScansMiB { get; init; }

    /// <summary>Size of the host's disk segment cache in MiB (in its data directory); 0 runs without one. Default 0.</summary>
    public int DiskCacheMiB { get; init; }

    /// <summary>Browsers with the web UI's dashboard open (reading its live feed) during the web phase. Default 0.</summary>
    public int Dashboards { get; init; }

    /// <summary>
    /// Sockets held open against the host through the concurrent phase, half idle, half trickling a
    /// request header (slowloris). Default 0.
    /// </summary>
    public int HostileConnections { get; init; }

    /// <summary>
    /// Each stream of the concurrent phase plays a file of its own (a job of <see cref="Streams"/>
    /// files of the run's size) instead of all playing the one benchmark file, as players on a
    /// library do: nothing is shared between them through the segment cache.
    /// </summary>
    public bool DistinctFiles { get; init; }

    /// <summary>
    /// Streams that read as fast as the server sends, each on a file of its own, beside the paced
    /// ones through the concurrent phase (a bandwidth cap's test: four downloads and a player).
    /// </summary>
    public int GreedyStreams { get; init; }

    /// <summary>
    /// When above 0, a release of this many MiB with 5 % PAR2 recovery (made by Debian's par2) loses
    /// 1 % of its articles, its holes are confirmed, and its PAR2 repair runs through the concurrent
    /// phase while the streams play: the players' waits and the repair's time are reported together.
    /// </summary>
    public int Par2RepairMiB { get; init; }

    /// <summary>
    /// When above 0, the run is the streams-held search instead of the phases above: how many
    /// streams of this many MB/s (10^6 bytes), each on a file of its own, the server holds.
    /// </summary>
    public int StreamsHeldMBps { get; init; }

    /// <summary>How long each step of the streams-held search plays. Default 60.</summary>
    public int HeldSeconds { get; init; } = 60;

    /// <summary>Streams of the search's first step. Default 10.</summary>
    public int HeldStart { get; init; } = 10;

    /// <summary>Streams added from one step to the next. Default 10.</summary>
    public int HeldStep { get; init; } = 10;

    /// <summary>The search stops after the step with this many streams even when it held. Default 200.</summary>
    public int HeldMax { get; init; } = 200;

    /// <summary>
    /// Nodes serving the streams-held search: one library in a PostgreSQL database of the run's own
    /// on <see cref="HeldPostgres"/>, one provider cap shared by their leases, players spread over
    /// them (file i on node i mod N, as a hash of the path would). Default 1.
    /// </summary>
    public int HeldNodes { get; init; } = 1;

    /// <summary>
    /// A PostgreSQL server (an Npgsql connection string whose role may create databases): the
    /// streams-held nodes' library goes there instead of SQLite. Required above one node.
    /// </summary>
    public string? HeldPostgres { get; init; }

    /// <summary>Only print the usage text.</summary>
    public bool Help { get; init; }

    /// <summary>Print the report as one JSON object on the last line as well.</summary>
    public bool Json => Mock.Json;
}
