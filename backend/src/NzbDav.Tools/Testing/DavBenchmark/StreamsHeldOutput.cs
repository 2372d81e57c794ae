using System.Globalization;
using System.Text.Json;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>The streams-held report as a summary box for people and as one JSON line for scripts.</summary>
public static class StreamsHeldOutput
{
    private const int Width = 63;
    private static readonly string Heavy = new('═', Width);
    private static readonly string Light = new('─', Width);

    public static void WriteSummary(TextWriter output, StreamsHeldReport report)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(report);
        var mock = report.Mock;
        output.WriteLine(Heavy);
        output.WriteLine("  STREAMS HELD");
        output.WriteLine(Heavy);
        output.WriteLine($"  Rate per stream:      {report.RateMBps} MB/s (10^6 bytes), each on a file of its own ({Num(report.FileSize)} bytes)");
        output.WriteLine($"  Servers:              {(report.Nodes == 1 ? "1 node" : $"{report.Nodes} nodes (file i on node i mod {report.Nodes})")}, library on {(report.Store == "postgres" ? "PostgreSQL" : "SQLite")}{(report.IdleStoreTransactionsPerSecond is { } idle ? $"; idle store transactions {F(idle, "0.0")}/s" : "")}");
        output.WriteLine($"  Mock Server:          latency {mock.LatencyMs}±{mock.JitterMs} ms, {mock.Connections} connections, {mock.SegmentSizeKiB} KiB segments");
        output.WriteLine($"  A step holds when:    every stream gets ≥ {F(StreamsHeldRun.HeldFraction * 100, "0")} % of the rate for {report.Seconds} s and no read after its first waits > {F(StreamsHeldRun.WaitLimit.TotalSeconds, "0")} s");
        output.WriteLine(Light);
        var postgres = report.Store == "postgres";
        output.WriteLine("  streams  held  slowest  median  worst read  slowest start  fetched/served  server RSS" + (postgres ? "  store tx/s" : ""));
        foreach (var s in report.Steps)
        {
            output.WriteLine(
                $"  {s.Streams,7}  {(s.Held ? "yes" : "NO"),4}  {F(s.SlowestFraction * 100, "0.0"),6}%  {F(s.MedianFraction * 100, "0.0"),5}%  {F(s.WorstWaitMs, "0"),7} ms  {F(s.SlowestStartMs, "0"),10} ms  {F(s.FetchedToServed, "0.000"),14}  {F(s.ServerPeakRssBytes / 1e6, "0"),6} MB{(postgres ? $"  {F(s.StoreTransactionsPerSecond ?? 0, "0.0"),10}" : "")}");
            foreach (var failure in s.Failures.Take(3))
                output.WriteLine($"           failed: {failure}");
        }

        output.WriteLine(Light);
        output.WriteLine($"  STREAMS HELD:          {report.Held} at {report.RateMBps} MB/s");
        output.WriteLine($"  DATA VERIFICATION:     {(report.Verification.MismatchedReads == 0 ? $"passed, {Num(report.Verification.VerifiedBytes)} bytes compared" : $"FAILED: {report.Verification.MismatchedReads} reads returned wrong bytes")}");
        output.WriteLine($"  RESULT:                {(report.Passed ? "PASSED" : "FAILED")}");
        output.WriteLine(Heavy);
    }

    public static string Json(StreamsHeldReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return JsonLine.Object(json =>
        {
            json.WriteString("command", "test-webdav-streams-held");
            json.WriteNumber("rateMBps", report.RateMBps);
            json.WriteNumber("seconds", report.Seconds);
            json.WriteNumber("fileSize", report.FileSize);
            json.WriteNumber("held", report.Held);
            json.WriteNumber("nodes", report.Nodes);
            json.WriteString("store", report.Store);
            if (report.IdleStoreTransactionsPerSecond is { } idle)
                json.WriteNumber("idleStoreTransactionsPerSecond", Math.Round(idle, 2));
            // The largest step that held, flat, for tools that compare runs (bench-compare.sh --bench streams).
            if (report.Steps.TakeWhile(s => s.Held).LastOrDefault() is { } top)
            {
                json.WriteStartObject("atHeld");
                json.WriteNumber("serverPeakRssMB", Math.Round(top.ServerPeakRssBytes / 1e6, 1));
                json.WriteNumber("fetchedToServed", Math.Round(top.FetchedToServed, 4));
                json.WriteNumber("slowestStartMs", Math.Round(top.SlowestStartMs, 1));
                json.WriteEndObject();
            }
            json.WriteStartArray("steps");
            foreach (var s in report.Steps)
                WriteStep(json, s);
            json.WriteEndArray();
            json.WriteStartObject("verification");
            json.WriteBoolean("passed", report.Verification.MismatchedReads == 0);
            json.WriteNumber("verifiedBytes", report.Verification.VerifiedBytes);
            json.WriteNumber("mismatchedReads", report.Verification.MismatchedReads);
            json.WriteEndObject();
            FullNzbTestJson.WriteMock(json, report.Mock);
            json.WriteBoolean("passed", report.Passed);
        });
    }

    private static void WriteStep(Utf8JsonWriter json, StreamsHeldStep s)
    {
        json.WriteStartObject();
        json.WriteNumber("streams", s.Streams);
        json.WriteBoolean("held", s.Held);
        json.WriteNumber("slowestFraction", Math.Round(s.SlowestFraction, 4));
        json.WriteNumber("medianFraction", Math.Round(s.MedianFraction, 4));
        json.WriteNumber("worstWaitMs", Math.Round(s.WorstWaitMs, 1));
        json.WriteNumber("readP99Ms", Math.Round(s.Reads.P99Ms, 1));
        json.WriteNumber("slowestStartMs", Math.Round(s.SlowestStartMs, 1));
        json.WriteNumber("servedBytes", s.ServedBytes);
        json.WriteNumber("fetchedBytes", s.FetchedBytes);
        json.WriteNumber("fetchedToServed", Math.Round(s.FetchedToServed, 4));
        json.WriteNumber("serverPeakRssMB", Math.Round(s.ServerPeakRssBytes / 1e6, 1));
        if (s.StoreTransactionsPerSecond is { } perSecond)
            json.WriteNumber("storeTransactionsPerSecond", Math.Round(perSecond, 2));
        json.WriteStartArray("failures");
        foreach (var failure in s.Failures)
            json.WriteStringValue(failure);
        json.WriteEndArray();
        json.WriteEndObject();
    }

    private static string Num(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
