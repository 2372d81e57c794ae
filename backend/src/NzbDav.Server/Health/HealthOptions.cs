namespace NzbDav.Server.Health;

/// <summary>
/// Health checks and repair (section <c>Health</c>). Every value applies at runtime: the next check
/// or import reads the values in force.
/// </summary>
public sealed class HealthOptions
{
    public const string SectionName = "Health";

    /// <summary>Scheduled re-checks of library files. Default on.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>STAT a sample of every file before a job is reported Completed. Default on.</summary>
    public bool ImportCheck { get; set; } = true;

    /// <summary>Share of a file's segments the import check asks about besides its first and last. Default 0.01.</summary>
    public double ImportSampleFraction { get; set; } = 0.01;

    /// <summary>Share of a large file's segments a scheduled check asks about besides its head and tail. Default 0.02.</summary>
    public double SampleFraction { get; set; } = 0.02;

    /// <summary>Files of at most this many segments are checked in full. Default 100.</summary>
    public int FullCheckSegments { get; set; } = 100;

    /// <summary>Every check STATs every segment of every file. Default off.</summary>
    public bool CheckEverything { get; set; }

    /// <summary>Shortest time between two scheduled checks of a file. Default 1 hour.</summary>
    public TimeSpan MinInterval { get; set; } = TimeSpan.FromHours(1);

    /// <summary>Longest time between two scheduled checks of a file. Default 30 days.</summary>
    public TimeSpan MaxInterval { get; set; } = TimeSpan.FromDays(30);

    /// <summary>Each interval is stretched or shortened by up to this share at random, so files added together spread out. Default 0.1.</summary>
    public double Jitter { get; set; } = 0.1;

    /// <summary>A segment seen missing is confirmed only by a check at least this much later. Default 5 minutes.</summary>
    public TimeSpan ConfirmDelay { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>When a check left segments unanswered, the next one comes this soon. Default 15 minutes.</summary>
    public TimeSpan UnknownRetry { get; set; } = TimeSpan.FromMinutes(15);

    /// <summary>Files checked at the same time (their STATs share one pipelined sweep). Default 4.</summary>
    public int ConcurrentFiles { get; set; } = 4;

    /// <summary>Degraded, not Broken, while no run of confirmed holes is longer than this. Default 3 segments.</summary>
    public int MaxConsecutiveMissing { get; set; } = 3;

    /// <summary>...and the holes hold at most this percentage of the file's bytes. Default 0.2.</summary>
    public double MaxMissingPercent { get; set; } = 0.2;

    /// <summary>Reads of a Degraded file's confirmed holes return zeros (video containers resync at the next keyframe). Default on.</summary>
    public bool ZeroFillHoles { get; set; } = true;

    /// <summary>Broken files are repaired through Sonarr/Radarr. Default on.</summary>
    public bool Repair { get; set; } = true;

    /// <summary>Repairs only log the calls they would make. Default off.</summary>
    public bool DryRun { get; set; }

    /// <summary>At most one repair per file in this window; after that the file needs the user. Default 7 days.</summary>
    public TimeSpan RepairWindow { get; set; } = TimeSpan.FromDays(7);

    /// <summary>A repair an Arr deferred (unreachable, a step refused) is tried again after this. Default 1 hour.</summary>
    public TimeSpan RepairRetry { get; set; } = TimeSpan.FromHours(1);

    /// <summary>At most this many repairs start in any hour, library-wide: a burst of takedowns never becomes a storm of searches. Default 10.</summary>
    public int MaxRepairsPerHour { get; set; } = 10;

    /// <summary>
    /// Degraded and Broken files are first rebuilt from the release's PAR2 recovery data, when it holds
    /// enough and the cost is within the caps below; Sonarr/Radarr only when PAR2 cannot. Default on.
    /// </summary>
    public bool Par2Repair { get; set; } = true;

    /// <summary>Most bytes one PAR2 repair may fetch (the release's surviving data and its recovery slices); null: no cap. Default 100 GiB.</summary>
    public long? Par2MaxBytesPerRepair { get; set; } = 100L * 1024 * 1024 * 1024;

    /// <summary>Most bytes PAR2 repairs together may fetch in a day (UTC); null: no cap. Default 250 GiB.</summary>
    public long? Par2MaxBytesPerDay { get; set; } = 250L * 1024 * 1024 * 1024;

    /// <summary>
    /// After a job completes, read a few of its PAR2 slices and check them against the release's
    /// MD5 and CRC-32 checksums: data that was posted wrong passes every article's yEnc CRC, and only
    /// PAR2 can tell. A slice that does not match makes its segments holes (zeros, not wrong bytes)
    /// and, with <see cref="Par2Repair"/>, a PAR2 repair. Off by default: it reads
    /// <see cref="Par2VerifySlices"/> slices per release.
    /// </summary>
    public bool Par2VerifyAtImport { get; set; }

    /// <summary>Slices read per release by <see cref="Par2VerifyAtImport"/>, spread over the set (its first and last among them). Default 8.</summary>
    public int Par2VerifySlices { get; set; } = 8;

    /// <summary>
    /// Memory a PAR2 rebuild may hold (its accumulators: one per lost slice, each a slice long).
    /// A repair that needs more stores the slices it reads in &lt;DataDirectory&gt;/par2-scratch (about
    /// the set's size, deleted after) and rebuilds in column stripes of this budget. Default 160 MiB:
    /// with a slice buffer and the stripes' own, a repair stays within 256 MB.
    /// </summary>
    public long Par2MemoryBytes { get; set; } = 160L * 1024 * 1024;

    /// <summary>Message-ids kept per Broken file so a re-grab of the same release fails at import. Default 16.</summary>
    public int KnownMissingPerFile { get; set; } = 16;

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        Require(ImportSampleFraction is >= 0 and <= 1, nameof(ImportSampleFraction), "must be between 0 and 1");
        Require(SampleFraction is >= 0 and <= 1, nameof(SampleFraction), "must be between 0 and 1");
        Require(FullCheckSegments >= 0, nameof(FullCheckSegments), "must not be negative");
        Require(MinInterval >= TimeSpan.FromMinutes(1), nameof(MinInterval), "must be at least 1 minute");
        Require(MaxInterval >= MinInterval, nameof(MaxInterval), "must be at least MinInterval");
        Require(Jitter is >= 0 and < 1, nameof(Jitter), "must be at least 0 and below 1");
        Require(ConfirmDelay >= TimeSpan.Zero, nameof(ConfirmDelay), "must not be negative");
        Require(UnknownRetry >= TimeSpan.FromSeconds(1), nameof(UnknownRetry), "must be at least 1 second");
        Require(ConcurrentFiles is >= 1 and <= 64, nameof(ConcurrentFiles), "must be between 1 and 64");
        Require(MaxConsecutiveMissing >= 0, nameof(MaxConsecutiveMissing), "must not be negative");
        Require(MaxMissingPercent is >= 0 and <= 100, nameof(MaxMissingPercent), "must be between 0 and 100");
        Require(RepairWindow >= TimeSpan.Zero, nameof(RepairWindow), "must not be negative");
        Require(RepairRetry >= TimeSpan.FromSeconds(1), nameof(RepairRetry), "must be at least 1 second");
        Require(MaxRepairsPerHour >= 1, nameof(MaxRepairsPerHour), "must be at least 1");
        Require(KnownMissingPerFile is >= 1 and <= 1000, nameof(KnownMissingPerFile), "must be between 1 and 1000");
        Require(Par2MaxBytesPerRepair is null or >= 0, nameof(Par2MaxBytesPerRepair), "must not be negative");
        Require(Par2MaxBytesPerDay is null or >= 0, nameof(Par2MaxBytesPerDay), "must not be negative");
        Require(Par2MemoryBytes >= 64 * 1024, nameof(Par2MemoryBytes), "must be at least 64 KiB");
        Require(Par2VerifySlices is >= 1 and <= 1000, nameof(Par2VerifySlices), "must be between 1 and 1000");
    }

    private static void Require(bool condition, string name, string rule)
    {
        if (!condition)
        {
            throw new ArgumentException($"Health:{name} {rule}.");
        }
    }
}
