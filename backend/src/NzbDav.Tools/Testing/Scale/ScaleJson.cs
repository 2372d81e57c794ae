using System.Text.Json;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>
/// Writes a report as one line of JSON (camelCase; times in ms, sizes in bytes). <c>growth</c> holds,
/// for each step between two sizes, the ratio of jobs and of each figure: a figure that grows no
/// faster than linearly has a ratio at most the jobs' ratio.
/// </summary>
public static class ScaleJson
{
    public static string Format(ScaleReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var options = report.Options;
        return JsonLine.Object(json =>
        {
            json.WriteString("command", "test-scale");
            json.WriteNumber("filesPerJob", options.FilesPerJob);
            json.WriteNumber("folderSize", options.FolderSize);
            json.WriteNumber("segments", options.VideoSegments);
            json.WriteNumber("samples", options.Samples);
            json.WriteStartArray("sizes");
            foreach (var size in report.Sizes)
                WriteSize(json, size);
            json.WriteEndArray();
            json.WriteStartArray("growth");
            for (var i = 1; i < report.Sizes.Count; i++)
                WriteGrowth(json, report.Sizes[i - 1], report.Sizes[i]);
            json.WriteEndArray();
        });
    }

    private static void WriteSize(Utf8JsonWriter json, ScaleSizeReport size)
    {
        json.WriteStartObject();
        json.WriteNumber("jobs", size.Jobs);
        json.WriteNumber("completed", size.Completed);
        json.WriteNumber("failed", size.Failed);
        json.WriteNumber("queued", size.Queued);
        json.WriteNumber("files", size.Files);
        json.WriteNumber("bigFolderChildren", size.BigFolderChildren);
        json.WriteNumber("history", size.History);
        json.WriteNumber("bigCategoryHistory", size.BigCategoryHistory);
        json.WriteNumber("generateSeconds", Math.Round(size.GenerateTime.TotalSeconds, 2));
        json.WriteNumber("databaseBytesGenerated", size.DatabaseBytesGenerated);
        json.WriteNumber("databaseBytes", size.DatabaseBytes);
        json.WriteNumber("startMs", Round(size.Start.TotalMilliseconds));
        json.WriteNumber("rssBytes", size.RssBytes);
        json.WriteNumber("peakRssBytes", size.PeakRssBytes);
        foreach (var (key, _) in ScaleReport.Calls)
        {
            if (!size.Latency.TryGetValue(key, out var latency))
                continue;
            json.WriteStartObject(key);
            json.WriteNumber("firstMs", Round(size.FirstMs[key]));
            json.WriteNumber("count", latency.Count);
            json.WriteNumber("p50Ms", Round(latency.P50Ms));
            json.WriteNumber("p99Ms", Round(latency.P99Ms));
            json.WriteNumber("maxMs", Round(latency.MaxMs));
            json.WriteEndObject();
        }

        json.WriteEndObject();
    }

    private static void WriteGrowth(Utf8JsonWriter json, ScaleSizeReport from, ScaleSizeReport to)
    {
        json.WriteStartObject();
        json.WriteNumber("fromJobs", from.Jobs);
        json.WriteNumber("toJobs", to.Jobs);
        json.WriteNumber("jobs", Ratio(to.Jobs, from.Jobs));
        json.WriteNumber("startMs", Ratio(to.Start.TotalMilliseconds, from.Start.TotalMilliseconds));
        json.WriteNumber("databaseBytes", Ratio(to.DatabaseBytes, from.DatabaseBytes));
        json.WriteNumber("rssBytes", Ratio(to.RssBytes, from.RssBytes));
        foreach (var (key, _) in ScaleReport.Calls)
        {
            if (from.Latency.TryGetValue(key, out var a) && to.Latency.TryGetValue(key, out var b))
                json.WriteNumber(key + "P50", Ratio(b.P50Ms, a.P50Ms));
        }

        json.WriteEndObject();
    }

    internal static double Ratio(double to, double from) => from > 0 ? Math.Round(to / from, 2) : 0;

    private static double Round(double value) => Math.Round(value, 2);
}
