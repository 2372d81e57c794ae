namespace NzbDav.Data.Entities;

/// <summary>
/// Bytes one consumer caused in one hour: received from one provider (<see cref="Provider"/> its
/// name), or served to the consumer (<see cref="Provider"/> empty). Kept 90 days.
/// </summary>
public sealed class TrafficHour
{
    /// <summary>UTC start of the hour.</summary>
    public DateTime HourStart { get; set; }

    /// <summary>"Plex Media Server · probe", "queue", "health check", "sessions" (greetings, logins), …</summary>
    public required string Consumer { get; set; }

    /// <summary>The provider's name; empty for the served row.</summary>
    public required string Provider { get; set; }

    /// <summary>Bytes read from the provider's sessions (whole answers, as the provider counts them).</summary>
    public long ReceivedBytes { get; set; }

    /// <summary>Bytes of response bodies sent to the consumer (the served row only).</summary>
    public long ServedBytes { get; set; }
}
