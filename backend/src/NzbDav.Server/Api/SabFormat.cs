using System.Globalization;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Api;

/// <summary>SABnzbd's spellings of sizes, priorities and statuses.</summary>
public static class SabFormat
{
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

    public static long UnixSeconds(DateTime utc) => new DateTimeOffset(DateTime.SpecifyKind(utc, DateTimeKind.Utc)).ToUnixTimeSeconds();
}
