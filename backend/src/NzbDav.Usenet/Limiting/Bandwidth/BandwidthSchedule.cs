using System.Globalization;
using NzbDav.Usenet.Configuration;

namespace NzbDav.Usenet.Limiting;

/// <summary>
/// The rate in force at each minute of the day: the windows of <see cref="BandwidthOptions.Schedule"/>,
/// and the cap (or none) outside them. Immutable.
/// </summary>
public sealed class BandwidthSchedule
{
    /// <summary>The smallest cap taken: below it a typo (a rate in Mbit or KB meant as MB) would all but stop playback.</summary>
    public const long MinimumRate = 64 * 1024;

    private const int MinutesPerDay = 24 * 60;

    private readonly Window[] _windows;

    private BandwidthSchedule(Window[] windows, long? outside)
    {
        _windows = windows;
        Outside = outside;
    }

    /// <summary>The rate outside every window (null: none).</summary>
    public long? Outside { get; }

    /// <summary>The windows in the order of their start.</summary>
    public IReadOnlyList<Window> Windows => _windows;

    /// <summary>Whether any rate could ever apply (a cap, or a window with one).</summary>
    public bool EverCaps => Outside is not null || Array.Exists(_windows, static w => w.Rate is not null);

    /// <summary>The rate in force at <paramref name="time"/> (null: unlimited).</summary>
    public long? RateAt(TimeOnly time)
    {
        var minute = (time.Hour * 60) + time.Minute;
        foreach (var window in _windows)
        {
            if (window.Contains(minute))
            {
                return window.Rate;
            }
        }
        return Outside;
    }

    /// <summary>How long from <paramref name="time"/> until the rate may change (the next window's start or end); null when it never does.</summary>
    public TimeSpan? UntilNextChange(TimeOnly time)
    {
        if (_windows.Length == 0)
        {
            return null;
        }
        var now = time.ToTimeSpan();
        var best = TimeSpan.MaxValue;
        foreach (var window in _windows)
        {
            foreach (var edge in (ReadOnlySpan<int>)[window.Start, window.End])
            {
                var until = TimeSpan.FromMinutes(edge) - now;
                if (until <= TimeSpan.Zero)
                {
                    until += TimeSpan.FromDays(1);
                }
                best = until < best ? until : best;
            }
        }
        return best;
    }

    /// <summary>
    /// Reads a schedule (<c>01:00-07:00=unlimited, 18:00-23:00=5 MiB</c>); every refusal names
    /// <see cref="BandwidthOptions.ScheduleKey"/> and the entry at fault.
    /// </summary>
    /// <exception cref="ArgumentException">An entry is not HH:MM-HH:MM=RATE, a time or rate is out of range, a window is empty, or two windows overlap.</exception>
    public static BandwidthSchedule Parse(string? text, long? outside)
    {
        var windows = new List<Window>();
        foreach (var raw in (text ?? "").Split([',', ';', '\n'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            windows.Add(ParseWindow(raw));
        }
        windows.Sort(static (a, b) => a.Start.CompareTo(b.Start));
        for (var i = 0; i < windows.Count; i++)
        {
            for (var j = i + 1; j < windows.Count; j++)
            {
                if (windows[i].Overlaps(windows[j]))
                {
                    throw new ArgumentException($"{BandwidthOptions.ScheduleKey}: '{windows[i].Text}' and '{windows[j].Text}' overlap; each time of day may have one rate only.");
                }
            }
        }
        return new BandwidthSchedule([.. windows], outside);
    }

    private static Window ParseWindow(string entry)
    {
        var equals = entry.IndexOf('=', StringComparison.Ordinal);
        var dash = equals < 0 ? -1 : entry.IndexOf('-', StringComparison.Ordinal);
        if (equals < 0 || dash < 0 || dash > equals)
        {
            throw new ArgumentException($"{BandwidthOptions.ScheduleKey}: '{entry}' is not a window; write HH:MM-HH:MM=RATE, e.g. 01:00-07:00=unlimited or 18:00-23:00=5 MiB.");
        }
        var start = Minute(entry, entry[..dash]);
        var end = Minute(entry, entry[(dash + 1)..equals]);
        if (start == end)
        {
            throw new ArgumentException($"{BandwidthOptions.ScheduleKey}: '{entry}' starts and ends at the same time; a window needs a length.");
        }
        var rateText = entry[(equals + 1)..].Trim();
        if (rateText.EndsWith("/s", StringComparison.OrdinalIgnoreCase))
        {
            rateText = rateText[..^2].TrimEnd();
        }
        long? rate;
        if (rateText.Equals("unlimited", StringComparison.OrdinalIgnoreCase) || rateText.Equals("full", StringComparison.OrdinalIgnoreCase))
        {
            rate = null;
        }
        else if (!ByteSize.TryParse(rateText, out var bytes, out var error))
        {
            throw new ArgumentException($"{BandwidthOptions.ScheduleKey}: the rate of '{entry}' is not a rate: {error} Or write unlimited.");
        }
        else if (bytes < MinimumRate)
        {
            throw new ArgumentException($"{BandwidthOptions.ScheduleKey}: the rate of '{entry}' is below {ByteSize.Format(MinimumRate)} per second; write unlimited for no cap.");
        }
        else
        {
            rate = bytes;
        }
        return new Window(start, end, rate, entry);
    }

    private static int Minute(string entry, string text)
    {
        var trimmed = text.Trim();
        if (trimmed == "24:00")
        {
            return MinutesPerDay;
        }
        if (!TimeOnly.TryParseExact(trimmed, ["H:mm", "HH:mm"], CultureInfo.InvariantCulture, DateTimeStyles.None, out var time))
        {
            throw new ArgumentException($"{BandwidthOptions.ScheduleKey}: '{trimmed}' in '{entry}' is not a time of day; write HH:MM between 00:00 and 24:00.");
        }
        return (time.Hour * 60) + time.Minute;
    }

    /// <summary>A window of the day [<see cref="Start"/>, <see cref="End"/>) in minutes; it crosses midnight when the end is not after the start.</summary>
    public sealed record Window(int Start, int End, long? Rate, string Text)
    {
        public bool Contains(int minute) =>
            End > Start ? minute >= Start && minute < End : minute >= Start || minute < (End % MinutesPerDay);

        public bool Overlaps(Window other)
        {
            for (var minute = 0; minute < MinutesPerDay; minute++)
            {
                if (Contains(minute) && other.Contains(minute))
                {
                    return true;
                }
            }
            return false;
        }
    }
}
