using System.Globalization;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>The human-readable end of a soak: what ran, then PASS/FAIL per target with the figures.</summary>
internal static class SoakSummary
{
    private const int MaxFailuresShown = 10;

    public static void Write(TextWriter output, SoakReport report)
    {
        var o = report.Options;
        var c = CultureInfo.InvariantCulture;
        output.WriteLine();
        output.WriteLine("==================== FAULT SOAK RESULTS SUMMARY ====================");
        output.WriteLine(string.Create(c, $"Load: {report.Elapsed.TotalSeconds:F0} s; {o.Players} players at {o.StreamMbps} Mbit/s, {o.Scrubbers} scrubbers, {o.Scanners} scanner; {o.Jobs} NZBs; {report.Dashboards} live feeds"));
        output.WriteLine(string.Create(c, $"Primary: stall {o.StallFraction:P0} ({o.StallSeconds} s), drop {o.DropFraction:P0}, 430 {o.MissingFraction:P0}; down {o.OutageSeconds} s from {o.OutageStart} s. Backup: every article."));
        output.WriteLine(string.Create(c, $"Reads: {report.Reads:N0} GETs, {report.Verification.VerifiedBytes / 1e9:F2} GB verified; PROPFINDs {report.PropfindsOutside.Count + report.PropfindsInside.Count:N0} (p99 {report.PropfindsOutside.P99Ms:F1} ms outside the outage, max {Math.Max(report.PropfindsOutside.MaxMs, report.PropfindsInside.MaxMs):F0} ms)"));
        Provider(output, "primary", report.Primary);
        Provider(output, "backup", report.Backup);
        if (report.Block is { } block)
            Provider(output, "block", block);
        output.WriteLine();
        Target(output, report.CorruptionPassed, string.Create(c,
            $"0 corrupted bytes: {report.Verification.MismatchedBytes:N0} wrong bytes in {report.Verification.MismatchedReads:N0} blocks of {report.Verification.VerifiedBytes:N0} bytes verified"));
        Target(output, report.FailedReadsPassed, string.Create(c,
            $"no failed read (the backup has every article): {report.FailedReads} failed, {report.FailuresDuringOutage} of them during the outage"));
        Target(output, report.CapsPassed, string.Create(c,
            $"session caps: primary peak {report.Primary.PeakConnections}/{report.Primary.MaxConnections}, backup peak {report.Backup.PeakConnections}/{report.Backup.MaxConnections}"));
        if (report.Block is { } blockAccount)
        {
            Target(output, report.BlockPassed, string.Create(c,
                $"block account bytes 0 (the backup has every article): {blockAccount.BytesSent:N0} bytes in {blockAccount.BodyCommands:N0} BODYs, peak {blockAccount.PeakConnections}/{blockAccount.MaxConnections} sessions"));
        }

        Target(output, report.WaitPassed, string.Create(c,
            $"read waits outside the outage <= {o.MaxWaitMs} ms: max {report.WaitsOutside.MaxMs:F0} ms, p99 {report.WaitsOutside.P99Ms:F1} ms, p50 {report.WaitsOutside.P50Ms:F1} ms over {report.WaitsOutside.Count:N0} blocks"));
        output.WriteLine(string.Create(c,
            $"       (during the outage: max {report.WaitsInside.MaxMs:F0} ms, p99 {report.WaitsInside.P99Ms:F1} ms over {report.WaitsInside.Count:N0} blocks)"));
        foreach (var worst in report.WorstWaits)
        {
            output.WriteLine(string.Create(c,
                $"       worst: {worst.WaitMs:F0} ms, {worst.Client}, {worst.Path} at offset {worst.Offset:N0}, {worst.AtSeconds:F1} s into the run"));
            foreach (var line in worst.Server)
                output.WriteLine("         server: " + line);
        }

        Target(output, report.RssPassed, string.Create(c,
            $"server peak RSS <= {o.MaxRssMB} MB: {report.HostPeakRssBytes / 1e6:F1} MB = {report.HostPeakRssBytes / 1048576.0:F0} MiB (its own process; the soak driver with both mocks: {report.Memory.PeakRssBytes / 1048576.0:F0} MiB)"));
        Target(output, report.JobsPassed, string.Create(c,
            $"every NZB Completed exactly once: {report.Jobs.Completed}/{report.Jobs.Jobs} completed, {report.Jobs.Failed} failed, {report.Jobs.Duplicates} duplicates, {report.Jobs.Missing} missing, {report.Jobs.Refused} refused{(report.Jobs.TimedOut ? ", TIMED OUT" : "")}"));
        Target(output, report.LiveChannelPassed, string.Create(c,
            $"live feeds open throughout: {report.DashboardFrames:N0} frames to {report.Dashboards} dashboards{(report.DashboardError is { } e ? "; ended early: " + e : "")}"));
        foreach (var problem in report.Jobs.Problems.Take(MaxFailuresShown))
            output.WriteLine("       job: " + problem);
        foreach (var failure in report.Failures.Take(MaxFailuresShown))
            output.WriteLine($"       failed: {failure.Client}: {failure.Request}: {failure.Error}");
        output.WriteLine(report.Passed ? "RESULT: PASS" : "RESULT: FAIL");
        output.WriteLine("====================================================================");
    }

    private static void Provider(TextWriter output, string name, SoakProviderReport p) =>
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Mock {name}: {p.Sessions:N0} sessions, {p.BodyCommands:N0} BODYs, {p.BytesSent / 1e9:F2} GB sent, peak {p.PeakConnections} connections; {p.DroppedByDown} dropped and {p.RefusedWhileDown} refused while down"));

    private static void Target(TextWriter output, bool passed, string text) => output.WriteLine((passed ? "[PASS] " : "[FAIL] ") + text);
}
