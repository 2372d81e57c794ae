using NzbDav.Data.Entities;

namespace NzbDav.Server.Health;

/// <summary>What one check of one file found.</summary>
public sealed record FileCheckResult(
    Guid ItemId,
    string Path,
    FileHealthState Previous,
    FileHealthState State,
    int Checked,
    int Present,
    int Missing,
    int Unknown,
    int ConfirmedHoles,
    int Suspects,
    DateTime NextCheckAt,
    string? Detail);
