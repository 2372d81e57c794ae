using System.Globalization;
using System.Text.Json;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>Writes a report as one line of JSON (camelCase; times in ms, sizes in bytes, MB = 10^6 bytes).</summary>
public static class WebDavBenchmarkJson
{
    public static string Format(WebDavBenchmarkReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return JsonLine.Object(json =>
        {
            json.WriteString("command", "test-webdav");
            json.WriteString("path", report.Path);
            json.WriteNumber("fileSize", report.FileSize);
            json.WriteNumber("connections", report.Connections);
            json.WriteNumber("ingestionMs", Round(report.Ingestion.TotalMilliseconds));
            json.WriteNumber("testerSequentialMBps", Round(report.Tester.SequentialMBps));
            WriteGet(json, "coldGet", report.ColdGet);
            WriteGet(json, "warmGet", report.WarmGet);
            json.WriteNumber("coldRatio", Math.Round(report.ColdRatio, 3));
            json.WriteNumber("warmRatio", Math.Round(report.WarmRatio, 3));
            json.WriteStartObject("rangedTtfbMs");
            foreach (var ranged in report.Ranged)
                json.WriteNumber(ranged.Percent.ToString(CultureInfo.InvariantCulture), Round(ranged.Measurement.TimeToFirstByte.TotalMilliseconds));
            json.WriteEndObject();
            WriteConcurrent(json, report.Concurrent);
            if (report.Probe is { } probe)
                WriteProbe(json, probe);
            if (report.Accounting is { } accounting)
            {
                json.WriteStartObject("accounting");
                json.WriteNumber("ledgerBytes", accounting.LedgerBytes);
                json.WriteNumber("providerBytes", accounting.ProviderBytes);
                json.WriteNumber("ratio", accounting.ProviderBytes > 0 ? Math.Round((double)accounting.LedgerBytes / accounting.ProviderBytes, 5) : 0);
                json.WriteEndObject();
            }
            json.WriteStartObject("targets");
            json.WriteBoolean("coldRatio", report.ColdRatio >= WebDavBenchmarkReport.RatioTarget);
            json.WriteBoolean("warmRatio", report.WarmRatio >= WebDavBenchmarkReport.RatioTarget);
            json.WriteBoolean("rangedTtfb", report.Ranged.All(r => r.Measurement.TimeToFirstByte.TotalMilliseconds <= WebDavBenchmarkReport.RangedTtfbTargetMs));
            json.WriteBoolean("streamWait", report.Concurrent.StreamReads.MaxMs <= WebDavBenchmarkReport.StreamWaitTargetMs);
            json.WriteEndObject();
            json.WriteStartObject("verification");
            json.WriteBoolean("passed", report.Verification.MismatchedReads == 0 && report.Tester.Verification.MismatchedReads == 0);
            json.WriteNumber("verifiedBytes", report.Verification.VerifiedBytes);
            json.WriteNumber("testerVerifiedBytes", report.Tester.Verification.VerifiedBytes);
            json.WriteNumber("mismatchedReads", report.Verification.MismatchedReads + report.Tester.Verification.MismatchedReads);
            json.WriteEndObject();
            FullNzbTestJson.WriteMock(json, report.Mock);
            FullNzbTestJson.WriteScrapes(json, report.Scrapes);
            if (report.Dashboards > 0)
            {
                json.WriteStartObject("dashboards");
                json.WriteNumber("count", report.Dashboards);
                json.WriteNumber("frames", report.DashboardFrames);
                json.WriteEndObject();
            }
            json.WriteBoolean("passed", report.Passed);
        });
    }

    private static void WriteGet(Utf8JsonWriter json, string name, GetMeasurement get)
    {
        json.WriteStartObject(name);
        json.WriteNumber("status", get.Status);
        json.WriteNumber("bytes", get.Bytes);
        json.WriteNumber("MBps", Round(get.MBps));
        json.WriteNumber("ttfbMs", Round(get.TimeToFirstByte.TotalMilliseconds));
        json.WriteNumber("ms", Round(get.Elapsed.TotalMilliseconds));
        json.WriteEndObject();
    }

    private static void WriteConcurrent(Utf8JsonWriter json, ConcurrentLoadResult c)
    {
        json.WriteStartObject("concurrent");
        json.WriteNumber("streams", c.Streams);
        json.WriteNumber("streamMbps", c.StreamMbps);
        json.WriteNumber("seconds", Math.Round(c.Elapsed.TotalSeconds, 2));
        json.WriteNumber("slowestStartMs", Round(c.SlowestStart.TotalMilliseconds));
        WriteLatency(json, "streamReads", c.StreamReads);
        json.WriteNumber("streamBytes", c.StreamBytes);
        json.WriteNumber("streamsAtEnd", c.StreamsAtEnd);
        json.WriteNumber("distinctFiles", c.DistinctFiles);
        WriteLatency(json, "propfinds", c.Propfinds);
        WriteLatency(json, "headerReads", c.HeaderReads);
        json.WriteNumber("headerBytes", c.HeaderBytes);
        json.WriteNumber("providerBytes", c.ProviderBytes);
        json.WriteNumber("fetchedToServedRatio", Math.Round(c.FetchedToServedRatio, 3));
        json.WriteNumber("scanMs", Round(c.ScanElapsed.TotalMilliseconds));
        if (c.Par2Repair is { } repair)
        {
            json.WriteStartObject("par2Repair");
            json.WriteNumber("fileBytes", repair.FileBytes);
            json.WriteNumber("articles", repair.Articles);
            json.WriteNumber("articlesLost", repair.ArticlesLost);
            json.WriteBoolean("repaired", repair.Repaired);
            json.WriteNumber("elapsedMs", Round(repair.Elapsed.TotalMilliseconds));
            json.WriteNumber("bytesRead", repair.BytesRead);
            json.WriteNumber("mismatchedBytes", repair.MismatchedBytes);
            json.WriteString("message", repair.Message);
            json.WriteEndObject();
        }
        if (c.Hostile is { } hostile)
        {
            json.WriteStartObject("hostile");
            json.WriteNumber("idle", hostile.Idle);
            json.WriteNumber("idleHeld", hostile.IdleHeld);
            json.WriteNumber("slow", hostile.Slow);
            json.WriteNumber("slowCut", hostile.SlowCut);
            json.WriteEndObject();
        }

        json.WriteEndObject();
    }

    private static void WriteProbe(Utf8JsonWriter json, ProbeResult probe)
    {
        json.WriteStartObject("probe");
        json.WriteNumber("files", probe.Files);
        json.WriteNumber("fileSize", probe.FileSize);
        json.WriteNumber("concurrency", probe.Concurrency);
        json.WriteBoolean("restarted", probe.Restarted);
        json.WriteNumber("playedBetweenBytes", probe.PlayedBetweenBytes);
        json.WriteNumber("diskCacheBytes", probe.DiskCacheBytes);
        json.WriteNumber("servedBytes", probe.ServedBytes);
        json.WriteNumber("providerBytes", probe.ProviderBytes);
        json.WriteNumber("fetchedToServedRatio", Math.Round(probe.FetchedToServedRatio, 3));
        WriteProbeScan(json, "scan1", probe.Scan1);
        WriteProbeScan(json, "scan2", probe.Scan2);
        json.WriteEndObject();
    }

    private static void WriteProbeScan(Utf8JsonWriter json, string name, ProbeScanResult scan)
    {
        json.WriteStartObject(name);
        json.WriteNumber("ms", Round(scan.Elapsed.TotalMilliseconds));
        json.WriteNumber("requests", scan.Requests);
        json.WriteNumber("servedBytes", scan.ServedBytes);
        json.WriteNumber("providerBytes", scan.ProviderBytes);
        json.WriteNumber("fetchedToServedRatio", Math.Round(scan.FetchedToServedRatio, 3));
        WriteLatency(json, "propfinds", scan.Propfinds);
        WriteLatency(json, "headRequests", scan.HeadRequests);
        WriteLatency(json, "headerReads", scan.HeaderReads);
        WriteLatency(json, "tailReads", scan.TailReads);
        WriteLatency(json, "randomReads", scan.RandomReads);
        json.WriteEndObject();
    }

    private static void WriteLatency(Utf8JsonWriter json, string name, LatencySummary summary)
    {
        json.WriteStartObject(name);
        json.WriteNumber("count", summary.Count);
        json.WriteNumber("p50Ms", Round(summary.P50Ms));
        json.WriteNumber("p99Ms", Round(summary.P99Ms));
        json.WriteNumber("maxMs", Round(summary.MaxMs));
        json.WriteEndObject();
    }

    private static double Round(double value) => Math.Round(value, 2);
}
