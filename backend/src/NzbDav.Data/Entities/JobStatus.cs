namespace NzbDav.Data.Entities;

/// <summary>Where a job is in its life. Stored as its integer value: never renumber.</summary>
public enum JobStatus
{
    /// <summary>Waiting for the ingestion queue.</summary>
    Queued = 0,

    /// <summary>Held by the user; the queue skips it until resumed.</summary>
    Paused = 1,

    /// <summary>Being ingested; a restart puts it back in line.</summary>
    Processing = 2,

    /// <summary>Ingested; its files are in the virtual tree.</summary>
    Completed = 3,

    /// <summary>Ingestion failed; <see cref="Job.FailMessage"/> says why.</summary>
    Failed = 4,
}
