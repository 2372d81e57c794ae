using System.Globalization;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>Writes a report as a summary box like the other test commands', for people.</summary>
public static class ServeCpuSummary
{
    private const int Width = 63;
    private static readonly string Heavy = new('═', Width);
    private static readonly string Light = new('─', Width);

    public static void Write(TextWriter output, ServeCpuReport report)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(report);
        var options = report.Options;
        string[] lines =
        [
            Heavy,
            "  SERVER CPU PER GB SERVED (whole-file WebDAV GETs)",
            Heavy,
            $"  File:                 {report.Path}",
            $"  Size:                 {Num(report.FileSize)} bytes",
            $"  Mock Server:          own process, latency {options.LatencyMs}±{options.JitterMs} ms, {options.Connections} connections",
            $"  Ingestion (addfile):  {Ms(report.Ingestion)} until Completed",
            $"  Warm-up GETs:         {report.WarmupTimes.Count} ({Num(report.WarmupBytes)} bytes): {string.Join(", ", report.WarmupTimes.Select(Ms))}",
            $"  Warm-up CPU per GB:   {F(report.WarmupCpuSecondsPerGb, "0.000")} CPU-seconds (JIT settling; not in the figure)",
            Light,
            $"  MEASURED: {options.Gets} GET{(options.Gets == 1 ? "" : "s")}, at most {options.Parallel} at once (GB = 10^9 bytes, MB = 10^6)",
            $"    Bytes served:       {Num(report.BytesServed)}",
            $"    Wall time:          {F(report.Elapsed.TotalSeconds, "0.000")} s ({F(report.MBps, "0.0")} MB/s)",
            $"    GET times:          {string.Join(", ", report.GetTimes.Select(Ms))}",
            $"    Server CPU:         {F(report.ServerCpu.TotalSeconds, "0.00")} s ({F(report.ServerCores, "0.00")} cores busy on average)",
            $"    Server CPU per GB:  {F(report.CpuSecondsPerGb, "0.000")} CPU-seconds",
            $"    Context switches:   {(report.ContextSwitchesPerGb is { } switches ? F(switches, "N0") + " per GB (the server's threads)" : "not readable here")}",
            $"    Server peak RSS:    {F(report.ServerPeakRssBytes / 1e6, "0.0")} MB",
            $"    Mock CPU:           {F(report.MockCpu.TotalSeconds, "0.00")} s (context, not in the figure)",
            $"    Client CPU:         {F(report.ClientCpu.TotalSeconds, "0.00")} s (this process; context, not in the figure)",
            Heavy,
        ];
        foreach (var line in lines)
            output.WriteLine(line);
    }

    private static string Num(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

    private static string Ms(TimeSpan elapsed) => F(elapsed.TotalMilliseconds, "0") + " ms";
}
