using System.Text.Json;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>Writes a soak report as one line of JSON (camelCase; times in ms, sizes in bytes).</summary>
public static class SoakJson
{
    public static string Format(SoakReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var o = report.Options;
        return JsonLine.Object(json =>
        {
            json.WriteString("command", "test-soak");
            json.WriteStartObject("settings");
            json.WriteNumber("durationSeconds", o.DurationSeconds);
            json.WriteNumber("players", o.Players);
            json.WriteNumber("scrubbers", o.Scrubbers);
            json.WriteNumber("scanners", o.Scanners);
            json.WriteNumber("jobs", o.Jobs);
            json.WriteNumber("stall", o.StallFraction);
            json.WriteNumber("stallSeconds", o.StallSeconds);
            json.WriteNumber("drop", o.DropFraction);
            json.WriteNumber("missing", o.MissingFraction);
            json.WriteNumber("outageSeconds", o.OutageSeconds);
            json.WriteNumber("outageAtSeconds", o.OutageStart);
            json.WriteNumber("streamMbps", o.StreamMbps);
            json.WriteNumber("dashboards", report.Dashboards);
            json.WriteEndObject();
            json.WriteNumber("elapsedMs", Math.Round(report.Elapsed.TotalMilliseconds));
            json.WriteNumber("reads", report.Reads);
            json.WriteStartObject("verification");
            json.WriteNumber("verifiedBytes", report.Verification.VerifiedBytes);
            json.WriteNumber("corruptedBytes", report.Verification.MismatchedBytes);
            json.WriteNumber("corruptedBlocks", report.Verification.MismatchedReads);
            json.WriteEndObject();
            json.WriteNumber("failedReads", report.FailedReads);
            json.WriteNumber("failedReadsDuringOutage", report.FailuresDuringOutage);
            json.WriteStartArray("failures");
            foreach (var failure in report.Failures.Take(50))
                json.WriteStringValue($"{failure.Client}: {failure.Request}: {failure.Error}");
            json.WriteEndArray();
            Latency(json, "waitsOutsideOutage", report.WaitsOutside);
            Latency(json, "waitsDuringOutage", report.WaitsInside);
            json.WriteStartArray("worstWaitsOutsideOutage");
            foreach (var worst in report.WorstWaits)
            {
                json.WriteStartObject();
                json.WriteString("client", worst.Client);
                json.WriteString("path", worst.Path);
                json.WriteNumber("offset", worst.Offset);
                json.WriteNumber("atSeconds", Math.Round(worst.AtSeconds, 1));
                json.WriteNumber("waitMs", Math.Round(worst.WaitMs));
                json.WriteStartArray("server");
                foreach (var line in worst.Server)
                    json.WriteStringValue(line);
                json.WriteEndArray();
                json.WriteEndObject();
            }

            json.WriteEndArray();
            Latency(json, "propfindsOutsideOutage", report.PropfindsOutside);
            Latency(json, "propfindsDuringOutage", report.PropfindsInside);
            Provider(json, "primary", report.Primary);
            Provider(json, "backup", report.Backup);
            if (report.Block is { } block)
                Provider(json, "block", block);
            json.WriteStartObject("jobs");
            json.WriteNumber("jobs", report.Jobs.Jobs);
            json.WriteNumber("submitted", report.Jobs.Submitted);
            json.WriteNumber("refused", report.Jobs.Refused);
            json.WriteNumber("completed", report.Jobs.Completed);
            json.WriteNumber("failed", report.Jobs.Failed);
            json.WriteNumber("duplicates", report.Jobs.Duplicates);
            json.WriteNumber("missing", report.Jobs.Missing);
            json.WriteBoolean("timedOut", report.Jobs.TimedOut);
            json.WriteEndObject();
            json.WriteNumber("hostPeakRssBytes", report.HostPeakRssBytes);
            json.WriteNumber("driverPeakRssBytes", report.Memory.PeakRssBytes);
            json.WriteNumber("managedHeapBytes", report.Memory.ManagedHeapBytes);
            json.WriteNumber("dashboardFrames", report.DashboardFrames);
            json.WriteStartObject("targets");
            json.WriteBoolean("noCorruption", report.CorruptionPassed);
            json.WriteBoolean("noFailedReads", report.FailedReadsPassed);
            json.WriteBoolean("sessionCaps", report.CapsPassed);
            json.WriteBoolean("blockAccountUnused", report.BlockPassed);
            json.WriteBoolean("waitOutsideOutage", report.WaitPassed);
            json.WriteBoolean("peakRss", report.RssPassed);
            json.WriteBoolean("jobsCompletedOnce", report.JobsPassed);
            json.WriteBoolean("liveChannel", report.LiveChannelPassed);
            json.WriteEndObject();
            json.WriteBoolean("passed", report.Passed);
        });
    }

    private static void Latency(Utf8JsonWriter json, string name, LatencySummary summary)
    {
        json.WriteStartObject(name);
        json.WriteNumber("count", summary.Count);
        json.WriteNumber("p50Ms", Math.Round(summary.P50Ms, 1));
        json.WriteNumber("p99Ms", Math.Round(summary.P99Ms, 1));
        json.WriteNumber("maxMs", Math.Round(summary.MaxMs, 1));
        json.WriteEndObject();
    }

    private static void Provider(Utf8JsonWriter json, string name, SoakProviderReport provider)
    {
        json.WriteStartObject(name);
        json.WriteNumber("maxConnections", provider.MaxConnections);
        json.WriteNumber("peakConnections", provider.PeakConnections);
        json.WriteNumber("sessions", provider.Sessions);
        json.WriteNumber("bodyCommands", provider.BodyCommands);
        json.WriteNumber("bytesSent", provider.BytesSent);
        json.WriteNumber("droppedByOutage", provider.DroppedByDown);
        json.WriteNumber("refusedWhileDown", provider.RefusedWhileDown);
        json.WriteEndObject();
    }
}
