namespace NzbDav.Data.Entities;

/// <summary>One NZB handed to NzbDav: a queue slot until ingested, then a history slot.</summary>
public sealed class Job
{
    public Guid Id { get; set; }

    /// <summary>SABnzbd-style id (<c>SABnzbd_nzo_…</c>); the same in queue and history.</summary>
    public required string NzoId { get; set; }

    public required string Name { get; set; }

    public required string Category { get; set; }

    /// <summary>SABnzbd priority: -1 low, 0 normal, 1 high, 2 force.</summary>
    public int Priority { get; set; }

    public JobStatus Status { get; set; }

    public string? FailMessage { get; set; }

    /// <summary>UTC.</summary>
    public DateTime AddedAt { get; set; }

    /// <summary>UTC; set when the job reaches Completed or Failed.</summary>
    public DateTime? CompletedAt { get; set; }

    /// <summary>Decoded bytes of the playable files (encoded NZB bytes until ingestion knows better).</summary>
    public long TotalBytes { get; set; }

    /// <summary>Where *arr finds the completed job (<c>&lt;MountPath&gt;/completed/&lt;category&gt;/&lt;name&gt;</c>).</summary>
    public string? StoragePath { get; set; }

    /// <summary>Archive password from the NZB meta or the <c>{{password}}</c> file-name convention.</summary>
    public string? Password { get; set; }

    /// <summary>
    /// The history entry was removed while the files stay in the library (the UI's "remove entry,
    /// keep files"): the job is left out of every history listing, its tree is still served.
    /// </summary>
    public bool RemovedFromHistory { get; set; }

    /// <summary>
    /// The node (<see cref="NodeRecord.Id"/>) that took the job out of the queue: only it completes or
    /// fails it, and once that node is gone the job goes back to the queue for another.
    /// </summary>
    public Guid? ClaimedBy { get; set; }

    /// <summary>Hex SHA-256 of the NZB bytes, for the duplicate policy.</summary>
    public required string NzbHash { get; set; }
}
