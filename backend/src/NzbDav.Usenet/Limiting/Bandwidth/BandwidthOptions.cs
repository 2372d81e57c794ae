namespace NzbDav.Usenet.Limiting;

/// <summary>
/// How fast all providers together may send (<c>Usenet:Bandwidth</c>): a cap in bytes per second,
/// and a schedule of times of day that set another rate (full speed at night, say). Each provider
/// may have its own cap too (<see cref="Providers.UsenetProviderOptions.MaxBytesPerSecond"/>).
/// </summary>
public sealed record BandwidthOptions
{
    /// <summary>The key of the schedule, as refusals name it.</summary>
    public const string ScheduleKey = "Usenet:Bandwidth:Schedule";

    /// <summary>The key of the cap, as refusals name it.</summary>
    public const string CapKey = "Usenet:Bandwidth:MaxBytesPerSecond";

    /// <summary>Bytes per second all providers together may send outside the schedule's windows; null: no cap.</summary>
    public long? MaxBytesPerSecond { get; init; }

    /// <summary>
    /// Windows of the day with their own rate, in the server's time zone, separated by commas:
    /// <c>01:00-07:00=unlimited, 18:00-23:00=5 MiB</c>. A window may cross midnight; windows may
    /// not overlap. Empty: the cap holds all day.
    /// </summary>
    public string? Schedule { get; init; }

    /// <summary>The schedule, parsed. Throws <see cref="ArgumentException"/> naming the setting when the options are not valid.</summary>
    public BandwidthSchedule Parse()
    {
        if (MaxBytesPerSecond is < BandwidthSchedule.MinimumRate)
        {
            throw new ArgumentException($"{CapKey} is {MaxBytesPerSecond}; it must be empty (no cap) or at least {BandwidthSchedule.MinimumRate:N0} bytes per second.");
        }

        return BandwidthSchedule.Parse(Schedule, MaxBytesPerSecond);
    }
}
