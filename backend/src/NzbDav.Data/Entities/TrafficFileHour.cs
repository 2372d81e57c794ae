namespace NzbDav.Data.Entities;

/// <summary>What reads of one library file cost in one hour: decoded bytes fetched from providers and bytes served (counted when each read ends). Kept 90 days.</summary>
public sealed class TrafficFileHour
{
    /// <summary>UTC start of the hour.</summary>
    public DateTime HourStart { get; set; }

    /// <summary>The file's WebDAV path.</summary>
    public required string Path { get; set; }

    public long FetchedBytes { get; set; }

    public long ServedBytes { get; set; }

    /// <summary>Reads (response bodies) that ended in the hour.</summary>
    public int Reads { get; set; }
}
