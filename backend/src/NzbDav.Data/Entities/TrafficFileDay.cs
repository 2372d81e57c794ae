namespace NzbDav.Data.Entities;

/// <summary>
/// What reads of one library file cost in one day (UTC): decoded bytes fetched from providers and
/// bytes served, counted when each read ends. By day, not hour: a library scan touches every file,
/// and hourly rows for each would grow the database by the thousands an hour. Kept 30 days.
/// </summary>
public sealed class TrafficFileDay
{
    /// <summary>UTC start of the day.</summary>
    public DateTime DayStart { get; set; }

    /// <summary>The file's WebDAV path.</summary>
    public required string Path { get; set; }

    public long FetchedBytes { get; set; }

    public long ServedBytes { get; set; }

    /// <summary>Reads (response bodies) that ended in the day.</summary>
    public int Reads { get; set; }
}
