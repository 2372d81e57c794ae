namespace NzbDav.Server.Configuration;

/// <summary><c>NzbDav:Queue</c>: the ingestion worker.</summary>
public sealed class QueueOptions
{
    /// <summary>Jobs ingested at the same time.</summary>
    public int MaxConcurrentJobs { get; set; } = 1;

    /// <summary>First articles fetched at once per job (the limiter's queue share still applies).</summary>
    public int ArticleConcurrency { get; set; } = 8;

    /// <summary>Keep accepted jobs queued without processing them (maintenance; tests use it to stop before ingestion).</summary>
    public bool Hold { get; set; }
}
