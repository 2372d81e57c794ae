using System.Diagnostics;
using NzbDav.Usenet.Providers;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// One <c>--test-webdav</c> run. The web host runs first so its first GET is the first streaming
/// read of a fresh process (the cold case users meet); the FullNzbTester runs after it on the same
/// mock server and NZB, once the host has stopped and the mock has seen every connection close, so
/// the two never share the provider's connection cap.
/// </summary>
internal sealed partial class WebDavBenchmark(WebDavBenchmarkOptions options, ILoggerFactory loggerFactory)
{
    private static readonly int[] RangedPercents = [10, 50, 90];
    private static readonly TimeSpan MockIdleDeadline = TimeSpan.FromSeconds(15);

    private readonly ILogger<WebDavBenchmark> _logger = loggerFactory.CreateLogger<WebDavBenchmark>();

    public async Task<WebDavBenchmarkReport> RunAsync(CancellationToken cancellationToken)
    {
        var mockOptions = options.Mock;
        await using var mock = await MockBenchmarkServer.StartAsync(mockOptions, cancellationToken);
        _logger.LogInformation("Mock NNTP server on 127.0.0.1:{Port}: {SizeMiB} MiB, latency {LatencyMs}±{JitterMs} ms, {Connections} connections",
            mock.Provider.Port, mockOptions.SizeMiB, mockOptions.LatencyMs, mockOptions.JitterMs, mockOptions.Connections);
        var segment = mockOptions.SegmentSizeKiB * 1024L;
        var librarySize = Math.Max((2 * segment) + (segment / 2), 256 * 1024);
        var libraryNzb = mock.AddFiles(LibraryJob, options.LibraryFiles, librarySize);

        var tally = new VerificationTally();
        WebPhase web;
        string path;
        MetricsScrapes? scrapes = null;
        long dashboardFrames = 0;
        (long, long)? accounting = null;
        await using (var host = await BenchmarkHost.StartAsync(
            mock.Provider.Port, mockOptions.Connections, [.. mockOptions.ConfigurationArguments, .. Par2HostArguments], cancellationToken, options.DiskCacheMiB * 1024L * 1024L))
        using (var stopScraping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            // Prometheus's view of the run: the host's /metrics every interval, as rclone's user is served.
            var scraping = mockOptions.ScrapeMetricsMs > 0
                ? MetricsScrapes.RunAsync(mockOptions.ScrapeMetricsMs, ct => ScrapeAsync(host.Http, ct), stopScraping.Token)
                : null;
            await using var dashboards = options.Dashboards > 0
                ? await DashboardClients.StartAsync(host.Root, BenchmarkHost.UserName, host.Password, options.Dashboards, cancellationToken)
                : null;
            var reader = new DavReader(host.Http, tally);
            var started = Stopwatch.GetTimestamp();
            var folder = await host.WaitForCompletedAsync(
                await host.AddFileAsync(await File.ReadAllBytesAsync(mock.NzbPath, cancellationToken), Path.GetFileName(mock.NzbPath), cancellationToken),
                cancellationToken);
            var ingestion = Stopwatch.GetElapsedTime(started);
            _logger.LogInformation("Ingested {Nzb} through addfile in {ElapsedMs:F0} ms", Path.GetFileName(mock.NzbPath), ingestion.TotalMilliseconds);
            var file = new BenchmarkFile(folder + MockBenchmarkServer.FileName, mockOptions.SizeMiB * 1024L * 1024L, mock.ExpectedFor(MockBenchmarkServer.FileName));
            path = file.Path;
            var (cold, warm, ranged) = await ReadAsync(reader, file, cancellationToken);
            var concurrent = await LoadAsync(host, reader, file, libraryNzb, librarySize, mock, cancellationToken);
            var probe = await ProbeAsync(host, reader, mock, cancellationToken);
            web = new WebPhase(ingestion, cold, warm, ranged, concurrent, probe);
            accounting = await AccountAsync(host, mock, cancellationToken);
            if (dashboards is not null)
            {
                dashboardFrames = await dashboards.StopAsync();
                _logger.LogInformation("{Dashboards} dashboards received {Frames} live updates in all", options.Dashboards, dashboardFrames);
            }
            if (scraping is not null)
            {
                await stopScraping.CancelAsync();
                scrapes = await scraping;
            }
        }

        await WaitForMockIdleAsync(mock, cancellationToken);
        _logger.LogInformation("Web host stopped; running the FullNzbTester on the same mock server and NZB");
        var tester = await new FullNzbTester(new UsenetOptions { Providers = [mock.Provider] }, loggerFactory)
            .RunAsync(mock.NzbPath, mock.ExpectedFor, cancellationToken);
        return new WebDavBenchmarkReport
        {
            Path = path,
            FileSize = mockOptions.SizeMiB * 1024L * 1024L,
            Connections = mockOptions.Connections,
            Ingestion = web.Ingestion,
            ColdGet = web.ColdGet,
            WarmGet = web.WarmGet,
            Ranged = web.Ranged,
            Concurrent = web.Concurrent,
            Probe = web.Probe,
            Tester = tester with { Mock = mock.Report() },
            Verification = tally.Result(),
            Mock = mock.Report(),
            Scrapes = scrapes,
            Dashboards = options.Dashboards,
            DashboardFrames = dashboardFrames,
            Accounting = accounting,
        };
    }

    // Once the provider is quiet: every byte the ledger accounted to a consumer for the mock, and the mock's own count.
    private async Task<(long, long)> AccountAsync(BenchmarkHost host, MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        var sent = await QuietBytesSentAsync(mock, cancellationToken);
        var ledger = host.Services.GetRequiredService<NzbDav.Server.Traffic.TrafficLedger>();
        await ledger.FlushAsync(cancellationToken);
        // From the database: it holds what hosts before a restart saved too.
        var contexts = host.Services.GetRequiredService<Microsoft.EntityFrameworkCore.IDbContextFactory<NzbDav.Data.NzbDavDbContext>>();
        await using var context = await contexts.CreateDbContextAsync(cancellationToken);
        var accounted = await Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions.SumAsync(
            context.TrafficHours.Where(h => h.Provider == mock.Provider.Name), h => h.ReceivedBytes, cancellationToken);
        _logger.LogInformation("Traffic ledger: {Accounted} of the {Sent} bytes the provider sent", accounted, sent);
        return (accounted, sent);
    }

    private static async Task<long> ScrapeAsync(HttpClient http, CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync("/metrics", cancellationToken);
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadAsByteArrayAsync(cancellationToken)).LongLength;
    }

    private async Task<(GetMeasurement Cold, GetMeasurement Warm, IReadOnlyList<RangedGet> Ranged)> ReadAsync(
        DavReader reader, BenchmarkFile file, CancellationToken cancellationToken)
    {
        // The first WebDAV request this host serves: nothing of the GET path has run in it yet.
        var cold = await reader.ReadAsync(file.Path, file.Expected, 0, file.Size, ranged: false, null, cancellationToken);
        _logger.LogInformation("Cold GET: {MBps:F1} MB/s, first byte after {TtfbMs:F1} ms", cold.MBps, cold.TimeToFirstByte.TotalMilliseconds);
        var warm = await reader.ReadAsync(file.Path, file.Expected, 0, file.Size, ranged: false, null, cancellationToken);
        _logger.LogInformation("Second GET: {MBps:F1} MB/s, first byte after {TtfbMs:F1} ms", warm.MBps, warm.TimeToFirstByte.TotalMilliseconds);

        var ranged = new List<RangedGet>(RangedPercents.Length);
        foreach (var percent in RangedPercents)
        {
            var offset = file.Size * percent / 100;
            var measurement = await reader.ReadAsync(file.Path, file.Expected, offset, Math.Min(DavReader.BlockSize, file.Size - offset), ranged: true, null, cancellationToken);
            ranged.Add(new RangedGet(percent, offset, measurement));
            _logger.LogInformation("Ranged GET at {Percent}%: first byte after {TtfbMs:F1} ms", percent, measurement.TimeToFirstByte.TotalMilliseconds);
        }

        return (cold, warm, ranged);
    }

    private async Task WaitForMockIdleAsync(MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        // A connection the host closed may still be open on the mock's side for a moment; the tester
        // opening its own then would be refused as one too many, as a real provider would.
        var started = Stopwatch.GetTimestamp();
        while (mock.CurrentConnections > 0)
        {
            if (Stopwatch.GetElapsedTime(started) > MockIdleDeadline)
            {
                _logger.LogWarning("The mock server still has {Connections} connections open {Seconds} s after the web host stopped", mock.CurrentConnections, MockIdleDeadline.TotalSeconds);
                return;
            }

            await Task.Delay(20, cancellationToken);
        }
    }
}
