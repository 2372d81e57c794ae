namespace NzbDav.Server.Configuration;

/// <summary><c>NzbDav:Queue</c>: the ingestion worker.</summary>
public sealed class QueueOptions
{
    /// <summary>Jobs ingested at the same time.</summary>
    public int MaxConcurrentJobs { get; set; } = 1;

    /// <summary>
    /// Article requests one job keeps in flight, pipelined on as many connections as the limiter lets
    /// queue operations borrow (streaming still wins contention).
    /// </summary>
    public int ArticleConcurrency { get; set; } = 64;

    /// <summary>
    /// Bytes of first articles one job keeps beyond 16 KiB each: archive volumes and PAR2 files keep
    /// their whole first article (headers and file descriptions are read from it) until this is used up.
    /// </summary>
    public long HeadBytesPerJob { get; set; } = 64L * 1024 * 1024;

    /// <summary>Keep accepted jobs queued without processing them (maintenance; tests use it to stop before ingestion).</summary>
    public bool Hold { get; set; }
}
