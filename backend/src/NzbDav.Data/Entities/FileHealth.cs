namespace NzbDav.Data.Entities;

/// <summary>What the health checks know about one library file, and when to look again.</summary>
public sealed class FileHealth
{
    /// <summary>The file's <see cref="DavItem"/> (deleted with it).</summary>
    public Guid DavItemId { get; set; }

    public Guid JobId { get; set; }

    public FileHealthState State { get; set; }

    /// <summary>Where a repair of this file stands.</summary>
    public RepairStatus Repair { get; set; }

    /// <summary>UTC: when the release was posted (the NZB's earliest date), which the schedule stretches from.</summary>
    public DateTime ReleasedAt { get; set; }

    /// <summary>UTC of the last finished check, null before the first.</summary>
    public DateTime? LastCheckedAt { get; set; }

    /// <summary>UTC of the next check; the scheduler takes files in this order.</summary>
    public DateTime NextCheckAt { get; set; }

    /// <summary>
    /// The node that took the file for a scheduled check on PostgreSQL, until the check is done; a
    /// file held by a node that is gone is due again at once.
    /// </summary>
    public Guid? CheckClaimedBy { get; set; }

    /// <summary>A streaming read failed or the user asked: checked before anything scheduled.</summary>
    public bool Urgent { get; set; }

    /// <summary>The next check STATs every segment (a hole was seen, or the user asked).</summary>
    public bool FullCheckNext { get; set; }

    /// <summary>Segments of the file (over all its layout parts).</summary>
    public int SegmentCount { get; set; }

    /// <summary>Segments the last check asked about.</summary>
    public int CheckedSegments { get; set; }

    /// <summary>Segments the last check could not get an answer for.</summary>
    public int UnknownSegments { get; set; }

    /// <summary>Confirmed holes: every provider answered 430 in two checks at least the confirmation delay apart. Newline-separated message-ids.</summary>
    public string? MissingIds { get; set; }

    public int MissingCount { get; set; }

    /// <summary>Seen missing once, awaiting the confirming check. Newline-separated message-ids.</summary>
    public string? SuspectIds { get; set; }

    /// <summary>UTC when the current suspects were first seen missing.</summary>
    public DateTime? SuspectSince { get; set; }

    /// <summary>One sentence on the state (holes and where, or what stayed unknown).</summary>
    public string? Detail { get; set; }

    /// <summary>UTC of the last repair started for this file.</summary>
    public DateTime? LastRepairAt { get; set; }

    public int RepairAttempts { get; set; }

    /// <summary>What the last repair attempt said.</summary>
    public string? RepairMessage { get; set; }
}
