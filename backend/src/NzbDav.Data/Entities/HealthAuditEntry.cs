namespace NzbDav.Data.Entities;

/// <summary>One line of the health audit log: a state change, a repair step, a user action.</summary>
public sealed class HealthAuditEntry
{
    public long Id { get; set; }

    /// <summary>UTC.</summary>
    public DateTime At { get; set; }

    public Guid? DavItemId { get; set; }

    public Guid? JobId { get; set; }

    /// <summary>The file's path when the entry was written (it may be gone since).</summary>
    public required string Path { get; set; }

    /// <summary>Short machine word: state, repair, arr-call, check-now, ignore, import-check…</summary>
    public required string Action { get; set; }

    public required string Detail { get; set; }
}
