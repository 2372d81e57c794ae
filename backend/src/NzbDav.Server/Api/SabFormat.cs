using System.Globalization;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Api;

/// <summary>SABnzbd's spellings of sizes, priorities and statuses.</summary>
public static class SabFormat
{
    private static readonly string[] SpeedUnits = ["", "K", "M", "G", "T", "P"];

    public static string Megabytes(long bytes) => (bytes / 1048576.0).ToString("0.00", CultureInfo.InvariantCulture);

    public static string Size(long bytes) => bytes switch
    {
        >= 1L << 30 => (bytes / (double)(1L << 30)).ToString("0.0", CultureInfo.InvariantCulture) + " GB",
        >= 1L << 20 => (bytes / (double)(1L << 20)).ToString("0.0", CultureInfo.InvariantCulture) + " MB",
        >= 1L << 10 => (bytes / (double)(1L << 10)).ToString("0.0", CultureInfo.InvariantCulture) + " KB",
        _ => bytes.ToString(CultureInfo.InvariantCulture) + " B",
    };

    public static string Priority(int priority) => priority switch
    {
        <= -1 => "Low",
        1 => "High",
        >= 2 => "Force",
        _ => "Normal",
    };

    public static string QueueStatus(JobStatus status) => status switch
    {
        JobStatus.Paused => "Paused",
        JobStatus.Processing => "Downloading",
        _ => "Queued",
    };

    public static string HistoryStatus(JobStatus status) => status == JobStatus.Completed ? "Completed" : "Failed";

    /// <summary>SABnzbd's time left: <c>H:MM:SS</c>, or <c>D:HH:MM:SS</c> from a day on; <c>0:00:00</c> when nothing is left.</summary>
    public static string TimeLeft(TimeSpan left)
    {
        var seconds = (long)Math.Max(0, Math.Ceiling(left.TotalSeconds));
        var (days, rest) = Math.DivRem(seconds, 86_400);
        var (hours, rest2) = Math.DivRem(rest, 3600);
        var (minutes, secs) = Math.DivRem(rest2, 60);
        return days > 0
            ? string.Create(CultureInfo.InvariantCulture, $"{days}:{hours:00}:{minutes:00}:{secs:00}")
            : string.Create(CultureInfo.InvariantCulture, $"{hours}:{minutes:00}:{secs:00}");
    }

    /// <summary>SABnzbd's speed: bytes per second in K/M/G steps of 1024, a decimal from M on (<c>"0 "</c>, <c>"512 K"</c>, <c>"1.3 M"</c>).</summary>
    public static string Speed(double bytesPerSecond)
    {
        var value = Math.Max(0, bytesPerSecond);
        var unit = 0;
        while (value > 1023 && unit < SpeedUnits.Length - 1)
        {
            value /= 1024;
            unit++;
        }

        return value.ToString(unit > 1 ? "0.0" : "0", CultureInfo.InvariantCulture) + " " + SpeedUnits[unit];
    }

    /// <summary>SABnzbd's <c>kbpersec</c>: KiB per second with two decimals.</summary>
    public static string KbPerSecond(double bytesPerSecond) => (Math.Max(0, bytesPerSecond) / 1024).ToString("0.00", CultureInfo.InvariantCulture);

    /// <summary>SABnzbd's <c>eta</c>: the server's local time when the queue is done (<c>"14:05 Sat 22 Nov"</c>), or <c>"unknown"</c>.</summary>
    public static string Eta(DateTimeOffset now, TimeSpan left) =>
        left <= TimeSpan.Zero ? "unknown" : (now + left).ToLocalTime().ToString("HH:mm ddd dd MMM", CultureInfo.InvariantCulture);

    public static long UnixSeconds(DateTime utc) => new DateTimeOffset(DateTime.SpecifyKind(utc, DateTimeKind.Utc)).ToUnixTimeSeconds();
}
