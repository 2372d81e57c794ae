using System.Diagnostics;

namespace NzbDav.Tools.Testing.DavBenchmark;

// The probe phase: a third job of files that a media server probes in a first scan and again in a refresh.
internal sealed partial class WebDavBenchmark
{
    private const string ProbeJob = "probe";
    private const string PlayedJob = "played";
    private static readonly TimeSpan QuietPeriod = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan QuietDeadline = TimeSpan.FromSeconds(10);

    private async Task<ProbeResult?> ProbeAsync(BenchmarkHost host, DavReader reader, MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        if (options.ProbeFiles == 0)
            return null;
        var size = options.ProbeFileMiB * 1024L * 1024L;
        var nzb = mock.AddFiles(ProbeJob, options.ProbeFiles, size);
        var folder = await host.WaitForCompletedAsync(await host.AddFileAsync(nzb, ProbeJob + ".nzb", cancellationToken), cancellationToken);
        var files = Enumerable.Range(1, options.ProbeFiles)
            .Select(i => $"{ProbeJob}-{i:D3}.bin")
            .Select(name => new BenchmarkFile(folder + name, size, mock.ExpectedFor(name)))
            .ToList();
        var pattern = new ProbePattern(host.Http, reader, files, options.ProbeConcurrency);
        var scan1 = await ScanAsync(pattern, mock, 1, cancellationToken);
        var played = options.PlayBetweenScansMiB > 0 ? await PlayBetweenAsync(host, reader, mock, cancellationToken) : 0;
        if (options.RestartBetweenScans)
        {
            var restarting = Stopwatch.GetTimestamp();
            await host.RestartAsync(cancellationToken);
            _logger.LogInformation("The server restarted between the scans in {Ms:F0} ms", Stopwatch.GetElapsedTime(restarting).TotalMilliseconds);
        }
        var scan2 = await ScanAsync(pattern, mock, 2, cancellationToken);
        var result = new ProbeResult
        {
            Files = files.Count,
            FileSize = size,
            Concurrency = options.ProbeConcurrency,
            Scan1 = scan1,
            Scan2 = scan2,
            Restarted = options.RestartBetweenScans,
            PlayedBetweenBytes = played,
            DiskCacheBytes = options.DiskCacheMiB * 1024L * 1024L,
        };
        _logger.LogInformation("Probe phase: {Files} files, {Provider} provider bytes for {Served} served ({Ratio:F2}x)",
            result.Files, result.ProviderBytes, result.ServedBytes, result.FetchedToServedRatio);
        return result;
    }

    /// <summary>Between the scans: other files played whole, as players would over the days between two scans; returns the bytes played.</summary>
    private async Task<long> PlayBetweenAsync(BenchmarkHost host, DavReader reader, MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        const long MaxFileSize = 1024L * 1024 * 1024;
        var total = options.PlayBetweenScansMiB * 1024L * 1024L;
        var count = (int)((total + MaxFileSize - 1) / MaxFileSize);
        var fileSize = total / count;
        var nzb = mock.AddFiles(PlayedJob, count, fileSize);
        var folder = await host.WaitForCompletedAsync(await host.AddFileAsync(nzb, PlayedJob + ".nzb", cancellationToken), cancellationToken);
        var started = Stopwatch.GetTimestamp();
        long played = 0;
        for (var i = 1; i <= count; i++)
        {
            var name = $"{PlayedJob}-{i:D3}.bin";
            var read = await reader.ReadAsync(folder + name, mock.ExpectedFor(name), 0, fileSize, ranged: false, null, cancellationToken);
            played += read.Bytes;
        }

        _logger.LogInformation("Played {Files} files ({Bytes} bytes) between the scans at {MBps:F0} MB/s",
            count, played, played / 1e6 / Stopwatch.GetElapsedTime(started).TotalSeconds);
        return played;
    }

    private async Task<ProbeScanResult> ScanAsync(ProbePattern pattern, MockBenchmarkServer mock, int number, CancellationToken cancellationToken)
    {
        // Read-ahead still running for earlier requests (the streams the concurrent phase dropped,
        // the previous scan) would otherwise be counted as this scan's provider bytes.
        var sentBefore = await QuietBytesSentAsync(mock, cancellationToken);
        var scan = await pattern.RunAsync(cancellationToken);
        scan = scan with { ProviderBytes = await QuietBytesSentAsync(mock, cancellationToken) - sentBefore };
        _logger.LogInformation(
            "Probe scan {Number}: {Requests} requests in {Seconds:F2} s; 64 KiB head p99 {HeadP99Ms:F1} ms, 1 MiB p99 {RandomP99Ms:F1} ms; {Ratio:F2}x fetched per byte served",
            number, scan.Requests, scan.Elapsed.TotalSeconds, scan.HeaderReads.P99Ms, scan.RandomReads.P99Ms, scan.FetchedToServedRatio);
        return scan;
    }

    // The provider's byte count once it has stopped moving for QuietPeriod (or after QuietDeadline).
    private async Task<long> QuietBytesSentAsync(MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        var sent = mock.Report().BytesSent;
        while (Stopwatch.GetElapsedTime(started) < QuietDeadline)
        {
            await Task.Delay(QuietPeriod, cancellationToken);
            var now = mock.Report().BytesSent;
            if (now == sent)
                return sent;
            sent = now;
        }

        _logger.LogWarning("The provider was still sending {Seconds} s after the last request; counting what it had sent by then", QuietDeadline.TotalSeconds);
        return sent;
    }
}
