using System.Globalization;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>Writes a report as a table, one column per library size, and the growth between sizes.</summary>
public static class ScaleSummary
{
    private const int LabelWidth = 46;
    private const int ColumnWidth = 16;

    public static void Write(TextWriter output, ScaleReport report)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(report);
        var sizes = report.Sizes;
        var width = LabelWidth + ColumnWidth * sizes.Count;
        var heavy = new string('═', width);
        var light = new string('─', width);
        output.WriteLine(heavy);
        output.WriteLine("  SCALE: HOW COST GROWS WITH THE LIBRARY (times p50 / p99 in ms)");
        output.WriteLine(heavy);
        Row(output, "Jobs", sizes.Select(s => Num(s.Jobs)));
        Row(output, "  completed / failed / queued", sizes.Select(s => $"{Num(s.Completed)}/{Num(s.Failed)}/{Num(s.Queued)}"));
        Row(output, "Library files", sizes.Select(s => Num(s.Files)));
        Row(output, "Biggest folder's children (/content/tv/)", sizes.Select(s => Num(s.BigFolderChildren)));
        Row(output, "Generated in", sizes.Select(s => F(s.GenerateTime.TotalSeconds, "0.0") + " s"));
        Row(output, "Database (with -wal)", sizes.Select(s => F(s.DatabaseBytes / 1e6, "0.0") + " MB"));
        Row(output, "Server start to /health 200", sizes.Select(s => F(s.Start.TotalMilliseconds, "0") + " ms"));
        Row(output, "Server RSS after / peak", sizes.Select(s => $"{F(s.RssBytes / 1e6, "0")}/{F(s.PeakRssBytes / 1e6, "0")} MB"));
        output.WriteLine(light);
        foreach (var (key, label) in ScaleReport.Calls)
        {
            if (!sizes.Any(s => s.Latency.ContainsKey(key)))
                continue;
            Row(output, label, sizes.Select(s => s.Latency.TryGetValue(key, out var l) ? $"{F(l.P50Ms, "0.0")}/{F(l.P99Ms, "0.0")}" : "-"));
        }

        if (sizes.Count > 1)
        {
            output.WriteLine(light);
            output.WriteLine("  GROWTH (ratio of p50 times, next size over previous; linear = the jobs' ratio)");
            for (var i = 1; i < sizes.Count; i++)
            {
                var (a, b) = (sizes[i - 1], sizes[i]);
                var ratios = ScaleReport.Calls.Where(c => a.Latency.ContainsKey(c.Key) && b.Latency.ContainsKey(c.Key))
                    .Select(c => $"{c.Key} ×{F(ScaleJson.Ratio(b.Latency[c.Key].P50Ms, a.Latency[c.Key].P50Ms), "0.00")}");
                output.WriteLine($"  {Num(a.Jobs)} → {Num(b.Jobs)} jobs (×{F(ScaleJson.Ratio(b.Jobs, a.Jobs), "0.##")}): start ×{F(ScaleJson.Ratio(b.Start.TotalMilliseconds, a.Start.TotalMilliseconds), "0.00")}, " +
                    $"database ×{F(ScaleJson.Ratio(b.DatabaseBytes, a.DatabaseBytes), "0.00")}, RSS ×{F(ScaleJson.Ratio(b.RssBytes, a.RssBytes), "0.00")}");
                output.WriteLine("    " + string.Join(", ", ratios));
            }
        }

        output.WriteLine(heavy);
    }

    private static void Row(TextWriter output, string label, IEnumerable<string> values) =>
        output.WriteLine("  " + label.PadRight(LabelWidth - 2) + string.Concat(values.Select(v => v.PadLeft(ColumnWidth))));

    private static string Num(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
