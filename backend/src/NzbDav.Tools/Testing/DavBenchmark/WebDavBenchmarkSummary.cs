using System.Globalization;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>Writes a report as a summary box like the FullNzbTester's, for people.</summary>
public static class WebDavBenchmarkSummary
{
    private const int Width = 63;
    private static readonly string Heavy = new('═', Width);
    private static readonly string Light = new('─', Width);

    public static void Write(TextWriter output, WebDavBenchmarkReport report)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(report);
        var mock = report.Mock;
        var c = report.Concurrent;
        var lines = new List<string>
        {
            Heavy,
            "  WEBDAV BENCHMARK RESULTS SUMMARY",
            Heavy,
            $"  File:                 {report.Path}",
            $"  Size:                 {Num(report.FileSize)} bytes",
            $"  Mock Server:          {mock.SizeMiB} MiB, latency {mock.LatencyMs}±{mock.JitterMs} ms, stall {F(mock.StallFraction, "0.###")}, {mock.SegmentSizeKiB} KiB segments",
            $"  Mock Connections:     peak {mock.PeakConnections} of {mock.Connections}, rejected {mock.RejectedConnections}",
            $"  Ingestion (addfile):  {Ms(report.Ingestion)} until Completed",
            Light,
            "  WHOLE-FILE GET vs FULLNZBTESTER (256 KiB reads, MB = 10^6 bytes):",
            $"    FullNzbTester:      {F(report.Tester.SequentialMBps, "0.00"),8} MB/s (same mock and NZB, after the host)",
            $"    First GET (cold):   {Get(report.ColdGet)}  ratio {F(report.ColdRatio, "0.00")} {Met(report.ColdRatio >= WebDavBenchmarkReport.RatioTarget)}",
            $"    Second GET:         {Get(report.WarmGet)}  ratio {F(report.WarmRatio, "0.00")} {Met(report.WarmRatio >= WebDavBenchmarkReport.RatioTarget)}",
            $"    Target:             ratio ≥ {F(WebDavBenchmarkReport.RatioTarget, "0.0")}",
            Light,
            $"  RANGED GET OF 256 KiB, FRESH STREAM (target first byte ≤ {F(WebDavBenchmarkReport.RangedTtfbTargetMs, "0")} ms):",
        };
        lines.AddRange(report.Ranged.Select(r =>
            $"    At {r.Percent}%:{"",-13} {Ms(r.Measurement.TimeToFirstByte),10} first byte, {Ms(r.Measurement.Elapsed)} total "
            + Met(r.Measurement.TimeToFirstByte.TotalMilliseconds <= WebDavBenchmarkReport.RangedTtfbTargetMs)));
        lines.Add(Light);
        lines.Add($"  {c.Streams} STREAMS AT {(c.StreamMbps > 0 ? c.StreamMbps + " Mbit/s" : "FULL SPEED")} + LIBRARY SCAN (target: no read waits > {F(WebDavBenchmarkReport.StreamWaitTargetMs / 1000, "0")} s):");
        lines.Add($"    Stream reads:       {Num(c.StreamReads.Count)} blocks after start, p50/p99/max {Lat(c.StreamReads)} {Met(c.StreamReads.MaxMs <= WebDavBenchmarkReport.StreamWaitTargetMs)}");
        lines.Add($"    Slowest start:      {Ms(c.SlowestStart)} to the first 256 KiB");
        lines.Add($"    Stream bytes:       {Num(c.StreamBytes)} in {F(c.Elapsed.TotalSeconds, "0.0")} s ({c.StreamsAtEnd} streams reached the end; {(c.DistinctFiles == 1 ? "all on one file" : c.DistinctFiles + " files, one each")})");
        lines.Add($"    PROPFIND:           {Num(c.Propfinds.Count)}, p50/p99/max {Lat(c.Propfinds)}");
        lines.Add($"    Header reads:       {Num(c.HeaderReads.Count)} of 64 KiB, p50/p99/max {Lat(c.HeaderReads)}");
        lines.Add($"    Scan time:          {F(c.ScanElapsed.TotalSeconds, "0.00")} s");
        lines.Add($"    Provider bytes:     {Num(c.ProviderBytes)} for {Num(c.StreamBytes + c.HeaderBytes)} served ({F(c.FetchedToServedRatio, "0.00")}x; includes read-ahead of the streams stopped)");
        if (c.Par2Repair is { } repair)
        {
            lines.Add($"    PAR2 repair beside: {Num(repair.FileBytes)} bytes, {repair.ArticlesLost} of {repair.Articles} articles lost; {(repair.Repaired ? "repaired" : "NOT repaired")} in {F(repair.Elapsed.TotalSeconds, "0.0")} s "
                + $"({Num(repair.BytesRead)} read, {F(repair.MBps, "0.0")} MB/s); read back: {Num(repair.MismatchedBytes)} wrong bytes {Met(repair.Repaired)}");
            lines.Add($"                        {repair.Message}");
        }
        if (c.Hostile is { } hostile)
            lines.Add($"    Hostile sockets:    {hostile.Idle} idle ({hostile.IdleHeld} held to the end), {hostile.Slow} slow-header ({hostile.SlowCut} cut by the server)");
        lines.Add(Light);
        if (report.Accounting is { } accounting)
        {
            lines.Add($"  TRAFFIC LEDGER:        {Num(accounting.LedgerBytes)} of the {Num(accounting.ProviderBytes)} bytes the provider sent accounted ({F(accounting.ProviderBytes > 0 ? (double)accounting.LedgerBytes / accounting.ProviderBytes : 0, "0.0000")})");
        }
        if (report.Probe is { } probe)
        {
            lines.AddRange(ProbeLines(probe));
            lines.Add(Light);
        }
        if (report.Scrapes is { } scrapes)
            lines.Add($"  METRICS SCRAPES:       {FullNzbTestSummary.ScrapeLine(scrapes)}");
        lines.Add($"  DATA VERIFICATION:     {Verification(report.Verification, report.Tester.Verification)}");
        lines.Add($"  RESULT:                {(report.Passed ? "PASSED" : "FAILED")}");
        lines.Add(Heavy);
        foreach (var line in lines)
            output.WriteLine(line);
    }

    private static IEnumerable<string> ProbeLines(ProbeResult probe)
    {
        yield return $"  PLEX-LIKE PROBE: {Num(probe.Files)} FILES OF {F(probe.FileSize / 1048576.0, "0.##")} MiB, {probe.Concurrency} AT ONCE, SCANNED TWICE:";
        if (probe.DiskCacheBytes > 0 || probe.Restarted || probe.PlayedBetweenBytes > 0)
        {
            yield return $"    Disk cache {(probe.DiskCacheBytes > 0 ? F(probe.DiskCacheBytes / 1048576.0, "0") + " MiB" : "off")}"
                + $"; between the scans: {(probe.PlayedBetweenBytes > 0 ? Num(probe.PlayedBetweenBytes) + " bytes played" : "nothing played")}"
                + $"{(probe.Restarted ? ", the server restarted" : "")}";
        }

        foreach (var (label, scan) in new[] { ("Scan 1:", probe.Scan1), ("Scan 2 (refresh):", probe.Scan2) })
        {
            yield return $"    {label,-20}{Num(scan.Requests)} requests in {F(scan.Elapsed.TotalSeconds, "0.00")} s";
            yield return $"      Reads:            64 KiB head p50/p99 {P50P99(scan.HeaderReads)}, 1 MiB p50/p99 {P50P99(scan.RandomReads)}";
            yield return $"      Provider bytes:   {Bytes(scan.ProviderBytes, scan.ServedBytes, scan.FetchedToServedRatio)}";
        }

        yield return $"    Both scans:         {Bytes(probe.ProviderBytes, probe.ServedBytes, probe.FetchedToServedRatio)}";
    }

    private static string Bytes(long provider, long served, double ratio) => $"{Num(provider)} for {Num(served)} served ({F(ratio, "0.000")}x)";

    private static string P50P99(LatencySummary s) => $"{F(s.P50Ms, "0.0")} / {F(s.P99Ms, "0.0")} ms";

    private static string Get(GetMeasurement get) => $"{F(get.MBps, "0.00"),8} MB/s, first byte {Ms(get.TimeToFirstByte)}";

    private static string Lat(LatencySummary s) => $"{F(s.P50Ms, "0.0")} / {F(s.P99Ms, "0.0")} / {F(s.MaxMs, "0.0")} ms";

    private static string Met(bool met) => met ? "(met)" : "(MISSED)";

    private static string Verification(VerificationResult web, VerificationResult tester) => (web.MismatchedReads + tester.MismatchedReads) switch
    {
        0 => $"passed, {Num(web.VerifiedBytes)} WebDAV + {Num(tester.VerifiedBytes)} tester bytes compared",
        var wrong => $"FAILED: {wrong} reads returned wrong bytes (first WebDAV offset {Num(web.FirstMismatchOffset ?? -1)})",
    };

    private static string Ms(TimeSpan elapsed) => F(elapsed.TotalMilliseconds, "0.0") + " ms";

    private static string Num(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
