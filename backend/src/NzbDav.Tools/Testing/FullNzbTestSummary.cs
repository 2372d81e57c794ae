using System.Globalization;

namespace NzbDav.Tools.Testing;

/// <summary>Writes a report as the seed-style summary box (═══ lines), for people.</summary>
public static class FullNzbTestSummary
{
    private const int Width = 63;
    private static readonly string Heavy = new('═', Width);
    private static readonly string Light = new('─', Width);

    public static void Write(TextWriter output, FullNzbTestReport report)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(report);
        var lines = new List<string>
        {
            Heavy,
            "  FULL NZB TESTER RESULTS SUMMARY",
            Heavy,
            $"  File Processed:       {report.Source}",
            $"  Total Files:          {report.TotalFiles}",
            $"  Tested File:          {report.TestedFile}",
            $"  Size:                 {Num(report.FileSize)} bytes, {report.Segments} segments of {Num(report.PartSize)}",
            $"  Stream Connections:   {report.StreamConnections}",
        };
        if (report.Mock is { } mock)
        {
            lines.Add($"  Mock Server:          {mock.SizeMiB} MiB, latency {mock.LatencyMs}±{mock.JitterMs} ms, stall {F(mock.StallFraction, "0.###")}, {mock.SegmentSizeKiB} KiB segments");
            lines.Add($"  Mock Connections:     peak {mock.PeakConnections} of {mock.Connections}, rejected {mock.RejectedConnections}");
        }

        if (report.Scrapes is { } scrapes)
        {
            lines.Add($"  Metrics Scrapes:      {ScrapeLine(scrapes)}");
        }

        lines.Add(Light);
        lines.Add("  INGESTION STEPS:");
        lines.AddRange(report.Steps.Select(s => $"    {s.Name + ":",-22} {Ms(s.Elapsed),10}   {s.Detail}"));
        lines.Add(Light);
        lines.Add("  SCRUBBING LATENCY (Seek + First Read of 256 KiB):");
        lines.AddRange(report.Scrub.Select(s => $"    Seek to {s.Percent}%:{"",-10} {Ms(s.Elapsed),10}"));
        lines.Add($"    Total Scrub Time:     {Ms(TimeSpan.FromTicks(report.Scrub.Sum(s => s.Elapsed.Ticks))),10}");
        lines.Add(Light);
        lines.Add("  SEQUENTIAL THROUGHPUT (256 KiB reads, MB = 10^6 bytes):");
        lines.Add($"    Speed:                {F(report.SequentialMBps, "0.00")} MB/s ({Num(report.SequentialBytes)} bytes in {F(report.SequentialElapsed.TotalSeconds, "0.000")} s)");
        var t = report.ReadTimes;
        lines.Add($"    Reads:                {t.Count}");
        lines.Add($"    Read Time avg/median: {F(t.AverageMs, "0.00")} ms / {F(t.MedianMs, "0.00")} ms");
        lines.Add($"    Read Time min/max:    {F(t.MinMs, "0.00")} ms / {F(t.MaxMs, "0.00")} ms");
        lines.Add($"    Read Time p95/p99:    {F(t.P95Ms, "0.00")} ms / {F(t.P99Ms, "0.00")} ms");
        foreach (var (label, sweep) in new[] { ("Sweep alone:        ", report.SweepAlone), ("Sweep during read:  ", report.SweepDuringRead) })
        {
            if (sweep is not null)
            {
                lines.Add($"    {label}  {sweep.Articles} STATs in {F(sweep.Elapsed.TotalSeconds, "0.000")} s = {F(sweep.ArticlesPerSecond, "0")}/s ({sweep.Present} present, {sweep.Missing} missing, {sweep.Unknown} unknown)");
            }
        }
        if (report.DiskCacheRead is { } disk)
        {
            lines.Add($"    From the disk cache:  {F(disk.MBps, "0.00")} MB/s, first byte {F(disk.FirstByte.TotalMilliseconds, "0.0")} ms ({Num(disk.FromDiskBytes)} bytes from disk, {Num(disk.FetchedBytes)} fetched; {disk.SegmentsWritten} segments written, {disk.WritesDropped} dropped)");
        }
        lines.Add(Light);
        var s = report.Streams;
        lines.Add("  CONNECTIONS AND BYTES (all streams opened):");
        lines.Add($"    Connection Acquire:   {s.LeasesAcquired} leases, total {Ms(s.LeaseAcquireTotal)}, max {Ms(s.LeaseAcquireMax)}");
        lines.Add($"    Peak Connections:     {s.PeakLeasesHeld} held by one stream (limit {report.StreamConnections})");
        lines.Add($"    Segments Fetched:     {s.SegmentsFetched} (retries {s.Retries}, straggler races {s.StragglerRaces})");
        lines.Add($"    Bytes Fetched:        {Num(s.BytesFetched)}");
        lines.Add($"    Bytes Read:           {Num(s.BytesRead)}");
        lines.Add($"    Fetched / Read:       {F(report.FetchedToReadRatio, "0.000")}");
        lines.Add(Light);
        lines.Add("  MEMORY (MB = 10^6 bytes):");
        lines.Add($"    Peak RSS:             {F(report.Memory.PeakRssBytes / 1e6, "0.0")} MB");
        lines.Add($"    Managed Heap (end):   {F(report.Memory.ManagedHeapBytes / 1e6, "0.0")} MB (allocated {F(report.Memory.AllocatedBytes / 1e6, "0.0")} MB during the run)");
        lines.Add(Light);
        lines.Add($"  DATA VERIFICATION:     {Verification(report.Verification)}");
        lines.Add($"  RESULT:                {(report.Passed ? "PASSED" : "FAILED")}");
        lines.Add(Heavy);
        foreach (var line in lines)
        {
            output.WriteLine(line);
        }
    }

    private static string Verification(VerificationResult v) => v switch
    {
        { Enabled: false } => "not available (true content known only with --mock-server)",
        { MismatchedReads: 0 } => $"passed, {Num(v.VerifiedBytes)} bytes compared",
        _ => $"FAILED: {v.MismatchedReads} reads returned wrong bytes, first at offset {Num(v.FirstMismatchOffset ?? 0)}",
    };

    private static string Ms(TimeSpan elapsed) => F(elapsed.TotalMilliseconds, "0.0") + " ms";

    private static string Num(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

    /// <summary>One line for <c>--scrape-metrics-ms</c>: count, failures, median and slowest scrape, size.</summary>
    public static string ScrapeLine(MetricsScrapes scrapes)
    {
        ArgumentNullException.ThrowIfNull(scrapes);
        return string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"{scrapes.Count} every {scrapes.IntervalMs} ms ({scrapes.Failures} failed), median {scrapes.MedianMs:F2} ms, max {scrapes.MaxMs:F2} ms, {scrapes.LastBytes:N0} bytes");
    }
}
