namespace NzbDav.Data.Entities;

/// <summary>
/// An episode or movie a repair asked Sonarr/Radarr to replace. The repair window is kept per item
/// as well as per file: when the replacement release goes bad too, the item is not repaired again
/// inside the window (the file shows Action needed) — a chain of re-grabs cannot turn into a loop.
/// </summary>
public sealed class ArrRepairedItem
{
    public long Id { get; set; }

    /// <summary>The Arr instance's name as configured, e.g. "sonarr".</summary>
    public required string Instance { get; set; }

    /// <summary>The episode id (Sonarr) or movie id (Radarr) in that instance.</summary>
    public int ItemId { get; set; }

    /// <summary>UTC when the repair that replaced it was accepted.</summary>
    public DateTime RepairedAt { get; set; }

    /// <summary>The release that was replaced, for the message.</summary>
    public required string JobName { get; set; }
}
