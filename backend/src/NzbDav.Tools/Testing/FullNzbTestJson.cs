using System.Globalization;
using System.Text.Json;

namespace NzbDav.Tools.Testing;

/// <summary>Writes a report as one line of JSON (camelCase; times in ms, sizes in bytes, MB = 10^6 bytes).</summary>
public static class FullNzbTestJson
{
    public static string Format(FullNzbTestReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return JsonLine.Object(json =>
        {
            json.WriteString("source", report.Source);
            json.WriteNumber("totalFiles", report.TotalFiles);
            json.WriteString("file", report.TestedFile);
            json.WriteNumber("fileSize", report.FileSize);
            json.WriteNumber("segments", report.Segments);
            json.WriteNumber("partSize", report.PartSize);
            json.WriteNumber("streamConnections", report.StreamConnections);
            json.WriteStartArray("steps");
            foreach (var step in report.Steps)
            {
                json.WriteStartObject();
                json.WriteString("name", step.Name);
                json.WriteNumber("ms", Round(step.Elapsed.TotalMilliseconds));
                json.WriteString("detail", step.Detail);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteStartObject("seekMs");
            foreach (var scrub in report.Scrub)
            {
                json.WriteNumber(scrub.Percent.ToString(CultureInfo.InvariantCulture), Round(scrub.Elapsed.TotalMilliseconds));
            }

            json.WriteEndObject();
            json.WriteNumber("scrubBytesRead", report.Scrub.Sum(s => (long)s.BytesReturned));
            json.WriteNumber("sequentialMBps", Round(report.SequentialMBps));
            json.WriteNumber("sequentialBytes", report.SequentialBytes);
            json.WriteNumber("sequentialMs", Round(report.SequentialElapsed.TotalMilliseconds));
            json.WriteNumber("readCount", report.ReadTimes.Count);
            json.WriteNumber("readAvgMs", Round(report.ReadTimes.AverageMs));
            json.WriteNumber("readMedianMs", Round(report.ReadTimes.MedianMs));
            json.WriteNumber("readMinMs", Round(report.ReadTimes.MinMs));
            json.WriteNumber("readMaxMs", Round(report.ReadTimes.MaxMs));
            json.WriteNumber("readP95Ms", Round(report.ReadTimes.P95Ms));
            json.WriteNumber("readP99Ms", Round(report.ReadTimes.P99Ms));
            foreach (var (name, sweep) in new[] { ("sweepAlone", report.SweepAlone), ("sweepDuringRead", report.SweepDuringRead) })
            {
                if (sweep is null)
                {
                    continue;
                }
                json.WriteStartObject(name);
                json.WriteNumber("articles", sweep.Articles);
                json.WriteNumber("present", sweep.Present);
                json.WriteNumber("missing", sweep.Missing);
                json.WriteNumber("unknown", sweep.Unknown);
                json.WriteNumber("seconds", Math.Round(sweep.Elapsed.TotalSeconds, 3));
                json.WriteNumber("articlesPerSecond", Round(sweep.ArticlesPerSecond));
                json.WriteEndObject();
            }
            if (report.DiskCacheRead is { } disk)
            {
                json.WriteStartObject("diskCacheRead");
                json.WriteNumber("MBps", Round(disk.MBps));
                json.WriteNumber("firstByteMs", Round(disk.FirstByte.TotalMilliseconds));
                json.WriteNumber("bytes", disk.Bytes);
                json.WriteNumber("fromDiskBytes", disk.FromDiskBytes);
                json.WriteNumber("fetchedBytes", disk.FetchedBytes);
                json.WriteNumber("segmentsWritten", disk.SegmentsWritten);
                json.WriteNumber("writesDropped", disk.WritesDropped);
                json.WriteEndObject();
            }
            json.WriteNumber("leasesAcquired", report.Streams.LeasesAcquired);
            json.WriteNumber("peakLeasesHeld", report.Streams.PeakLeasesHeld);
            json.WriteNumber("connectionAcquireTotalMs", Round(report.Streams.LeaseAcquireTotal.TotalMilliseconds));
            json.WriteNumber("connectionAcquireMaxMs", Round(report.Streams.LeaseAcquireMax.TotalMilliseconds));
            json.WriteNumber("segmentsFetched", report.Streams.SegmentsFetched);
            json.WriteNumber("retries", report.Streams.Retries);
            json.WriteNumber("stragglerRaces", report.Streams.StragglerRaces);
            json.WriteNumber("bytesFetched", report.Streams.BytesFetched);
            json.WriteNumber("bytesRead", report.Streams.BytesRead);
            json.WriteNumber("fetchedToReadRatio", Math.Round(report.FetchedToReadRatio, 4));
            json.WriteNumber("peakRssMB", Round(report.Memory.PeakRssBytes / 1e6));
            json.WriteNumber("managedHeapMB", Round(report.Memory.ManagedHeapBytes / 1e6));
            json.WriteNumber("allocatedMB", Round(report.Memory.AllocatedBytes / 1e6));
            json.WriteStartObject("verification");
            json.WriteBoolean("enabled", report.Verification.Enabled);
            json.WriteBoolean("passed", report.Verification.Enabled && report.Verification.MismatchedReads == 0);
            json.WriteNumber("verifiedBytes", report.Verification.VerifiedBytes);
            json.WriteNumber("mismatchedReads", report.Verification.MismatchedReads);
            if (report.Verification.FirstMismatchOffset is { } offset)
            {
                json.WriteNumber("firstMismatchOffset", offset);
            }

            json.WriteEndObject();
            WriteMock(json, report.Mock);
            WriteScrapes(json, report.Scrapes);
            json.WriteBoolean("passed", report.Passed);
        });
    }

    /// <summary>The <c>mock</c> object: the mock server's settings and what it saw.</summary>
    internal static void WriteMock(Utf8JsonWriter json, MockServerReport? mock)
    {
        if (mock is null)
        {
            return;
        }

        json.WriteStartObject("mock");
        json.WriteNumber("sizeMiB", mock.SizeMiB);
        json.WriteNumber("latencyMs", mock.LatencyMs);
        json.WriteNumber("jitterMs", mock.JitterMs);
        json.WriteNumber("connections", mock.Connections);
        json.WriteNumber("stall", mock.StallFraction);
        json.WriteNumber("segmentSizeKiB", mock.SegmentSizeKiB);
        json.WriteNumber("peakConnections", mock.PeakConnections);
        json.WriteNumber("rejectedConnections", mock.RejectedConnections);
        json.WriteNumber("bytesSent", mock.BytesSent);
        json.WriteEndObject();
    }

    /// <summary>The <c>metricsScrapes</c> object, when the run scraped its metrics.</summary>
    public static void WriteScrapes(Utf8JsonWriter json, MetricsScrapes? scrapes)
    {
        ArgumentNullException.ThrowIfNull(json);
        if (scrapes is null)
        {
            return;
        }

        json.WriteStartObject("metricsScrapes");
        json.WriteNumber("intervalMs", scrapes.IntervalMs);
        json.WriteNumber("count", scrapes.Count);
        json.WriteNumber("failures", scrapes.Failures);
        json.WriteNumber("medianMs", Round(scrapes.MedianMs));
        json.WriteNumber("maxMs", Round(scrapes.MaxMs));
        json.WriteNumber("lastBytes", scrapes.LastBytes);
        json.WriteEndObject();
    }

    private static double Round(double value) => Math.Round(value, 2);
}
