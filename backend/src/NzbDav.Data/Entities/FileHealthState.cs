namespace NzbDav.Data.Entities;

/// <summary>A library file's health. Stored as its integer value: never renumber.</summary>
public enum FileHealthState
{
    /// <summary>Not checked yet, or the last check could not reach a verdict.</summary>
    Unknown = 0,

    /// <summary>Every segment asked about is on some provider.</summary>
    Healthy = 1,

    /// <summary>Confirmed holes within the tolerance: plays, holes read as zeros.</summary>
    Degraded = 2,

    /// <summary>Confirmed holes beyond the tolerance: reads of them fail; repair through Sonarr/Radarr.</summary>
    Broken = 3,
}
