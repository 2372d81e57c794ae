using System.Text.Json;
using NzbDav.Tools.Testing;

namespace NzbDav.Server.Tests.Testing;

public sealed class FullNzbTestReportTests
{
    [Fact]
    public void Wrong_bytes_fail_the_report_loudly_in_the_box_and_in_json()
    {
        var report = Report(new VerificationResult(true, 1_000, 2, 777));

        using var box = new StringWriter();
        FullNzbTestSummary.Write(box, report);
        using var json = JsonDocument.Parse(FullNzbTestJson.Format(report));

        Assert.False(report.Passed);
        Assert.Contains("FAILED: 2 reads returned wrong bytes, first at offset 777", box.ToString(), StringComparison.Ordinal);
        Assert.Contains("RESULT:                FAILED", box.ToString(), StringComparison.Ordinal);
        Assert.False(json.RootElement.GetProperty("passed").GetBoolean());
        Assert.Equal(777, json.RootElement.GetProperty("verification").GetProperty("firstMismatchOffset").GetInt64());
    }

    [Fact]
    public void A_short_sequential_read_fails_the_report()
    {
        var report = Report(new VerificationResult(false, 0, 0, null)) with { SequentialBytes = 999 };

        Assert.False(report.Passed);
    }

    [Fact]
    public void Throughput_uses_decimal_megabytes_and_the_ratio_is_fetched_over_read()
    {
        var report = Report(new VerificationResult(false, 0, 0, null));

        Assert.Equal(2.0, report.SequentialMBps, precision: 9);
        Assert.Equal(1.25, report.FetchedToReadRatio, precision: 9);
        Assert.True(report.Passed);
    }

    [Fact]
    public void The_verifier_counts_mismatches_and_remembers_the_first_wrong_offset()
    {
        var truth = Enumerable.Range(0, 100).Select(i => (byte)i).ToArray();
        var verifier = new ReadVerifier((offset, destination) => truth.AsSpan((int)offset, destination.Length).CopyTo(destination));
        var wrong = truth[10..20];
        wrong[4] ^= 0xFF;

        verifier.Verify(0, truth.AsSpan(0, 10));
        verifier.Verify(10, wrong);
        verifier.Verify(20, wrong);

        Assert.Equal(30, verifier.VerifiedBytes);
        Assert.Equal(2, verifier.MismatchedReads);
        Assert.Equal(14, verifier.FirstMismatchOffset);
    }

    [Fact]
    public void Read_time_statistics_use_the_nearest_rank_p95()
    {
        var stats = ReadTimeStatistics.From([.. Enumerable.Range(1, 20).Select(i => (double)i).Reverse()]);

        Assert.Equal(20, stats.Count);
        Assert.Equal(10.5, stats.AverageMs);
        Assert.Equal(10.5, stats.MedianMs);
        Assert.Equal(1, stats.MinMs);
        Assert.Equal(20, stats.MaxMs);
        Assert.Equal(19, stats.P95Ms);
    }

    private static FullNzbTestReport Report(VerificationResult verification) => new()
    {
        Source = "x.nzb",
        TotalFiles = 1,
        TestedFile = "x.bin",
        FileSize = 1_000,
        Segments = 2,
        PartSize = 500,
        StreamConnections = 4,
        Steps = [new TimedStep("Parse NZB", TimeSpan.FromMilliseconds(1), "1 files")],
        Scrub = [new ScrubResult(10, 100, TimeSpan.FromMilliseconds(3), 100)],
        SequentialBytes = 1_000,
        SequentialElapsed = TimeSpan.FromMilliseconds(0.5),
        ReadTimes = ReadTimeStatistics.Empty,
        Streams = StreamCounters.Zero with { BytesFetched = 1_375, BytesRead = 1_100 },
        Memory = new MemoryUsage(1, 1, 1),
        Verification = verification,
    };
}
