namespace NzbDav.Data.Entities;

/// <summary>Where the repair of a file stands. Stored as its integer value: never renumber.</summary>
public enum RepairStatus
{
    /// <summary>Nothing to repair, or not tried yet.</summary>
    None = 0,

    /// <summary>The last try was deferred (an Arr unreachable or refusing a step); it is tried again later.</summary>
    Deferred = 1,

    /// <summary>A repair was already made within the window, or no Arr owns the download: the user decides.</summary>
    ActionNeeded = 2,

    /// <summary>The user chose to keep the file as it is: no repair, checks continue.</summary>
    Ignored = 3,

    /// <summary>Dry-run: the calls a repair would make were logged, nothing was changed.</summary>
    DryRun = 4,

    /// <summary>A PAR2 repair of its release is queued or running; after a restart it starts again.</summary>
    Repairing = 5,
}
