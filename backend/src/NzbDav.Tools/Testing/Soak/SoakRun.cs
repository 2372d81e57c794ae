using System.Diagnostics;
using System.Globalization;
using NzbDav.MockNntp;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>
/// One <c>--test-soak</c> run: the two providers, the real host configured with both, a library
/// job ingested before the clock starts, then the load (clients, NZBs, dashboards, the outage) for
/// the duration, then the checks. The host runs as a child process (this build's NzbDav.dll), so
/// its peak RSS is its own; the mocks and the clients stay here, where the outage is switched.
/// </summary>
internal sealed class SoakRun(SoakOptions options, ILoggerFactory loggerFactory)
{
    private const string LibraryJob = "soak-library";
    private const int WorstWaitsShown = 5;

    private readonly ILogger<SoakRun> _logger = loggerFactory.CreateLogger<SoakRun>();

    public async Task<SoakReport> RunAsync(CancellationToken cancellationToken)
    {
        var allocatedAtStart = GC.GetTotalAllocatedBytes(precise: false);
        await using var providers = await SoakProviders.StartAsync(options, cancellationToken);
        var segment = options.SegmentSizeKiB * 1024;
        var (libraryNzb, libraryExpected) = providers.Post(
            LibraryJob, Enumerable.Range(1, options.LibraryFiles).Select(i => $"film-{i:D2}.mkv"), options.FileMiB * 1024L * 1024L, segment);
        var jobSize = options.JobFileMiB * 1024L * 1024L;
        var jobs = Enumerable.Range(1, options.Jobs).Select(i =>
        {
            var name = string.Create(CultureInfo.InvariantCulture, $"soak-job-{i:D3}");
            var fileName = name + ".mkv";
            var (nzb, expected) = providers.Post(name, [fileName], jobSize, segment);
            return new SoakJob(name, fileName, jobSize, nzb, expected[fileName]);
        }).ToList();
        _logger.LogInformation("Primary on port {Primary} (stall {Stall}, drop {Drop}, missing {Missing}), backup on {Backup}",
            providers.Primary.Port, options.StallFraction, options.DropFraction, options.MissingFraction, providers.Backup.Port);

        var tally = new VerificationTally();
        var recorder = new SoakRecorder();
        await using var host = await BenchmarkHost.StartChildAsync(providers.HostArguments(options), options.ConfigurationArguments, cancellationToken, recorder.ServerLine);
        var libraryFolder = await host.WaitForCompletedAsync(await host.AddFileAsync(libraryNzb, LibraryJob + ".nzb", cancellationToken), cancellationToken);
        var library = libraryExpected.Select(p => new BenchmarkFile(libraryFolder + p.Key, options.FileMiB * 1024L * 1024L, p.Value)).OrderBy(f => f.Path, StringComparer.Ordinal).ToList();
        _logger.LogInformation("Library of {Files} files ingested; the load runs {Seconds} s", library.Count, options.DurationSeconds);

        await using var dashboards = options.Dashboards > 0
            ? await DashboardClients.StartAsync(host.Root, BenchmarkHost.UserName, host.Password, options.Dashboards, cancellationToken)
            : null;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var clients = new SoakClients(host.Http, new DavReader(host.Http, tally), recorder, options, _logger);
        var ingestion = new SoakIngestion(host, clients, _logger);
        var started = Stopwatch.GetTimestamp();
        recorder.RunStarted();
        var duration = TimeSpan.FromSeconds(options.DurationSeconds);
        var running = clients.Start(library, stop.Token);
        var submitting = ingestion.RunAsync(jobs, duration, stop.Token);
        var outage = OutageAsync(providers.Primary.Behavior, recorder, stop.Token);
        await Task.Delay(duration, cancellationToken);
        await stop.CancelAsync();
        await Task.WhenAll([.. running, submitting, outage]);
        var elapsed = Stopwatch.GetElapsedTime(started);
        _logger.LogInformation("Load stopped after {Seconds:F0} s; waiting for the ingestions to finish", elapsed.TotalSeconds);

        var jobsResult = await ingestion.FinishAsync(options.Jobs, cancellationToken);
        string? dashboardError = null;
        long frames = 0;
        if (dashboards is not null)
        {
            try
            {
                frames = await dashboards.StopAsync();
            }
            catch (Exception error) when (error is HttpRequestException or IOException)
            {
                dashboardError = error.Message;
            }
        }

        var (waitsOutside, waitsInside) = recorder.Waits();
        var (propfindsOutside, propfindsInside) = recorder.Propfinds();
        var failures = recorder.Failures();
        var memory = MemoryUsage.Measure(allocatedAtStart);
        return new SoakReport
        {
            Options = options,
            Elapsed = elapsed,
            Verification = tally.Result(),
            Reads = recorder.Reads,
            Failures = failures,
            FailuresDuringOutage = failures.Count(f => recorder.DuringOutage(f.Start, f.End)),
            WaitsOutside = waitsOutside,
            WaitsInside = waitsInside,
            WorstWaits = recorder.WorstOutside(WorstWaitsShown).Select(w => new SoakWorstWait(
                w.Client, w.Path, w.Offset, recorder.SecondsIntoRun(w.Start), w.WaitMs, w.Server)).ToList(),
            PropfindsOutside = propfindsOutside,
            PropfindsInside = propfindsInside,
            Primary = Provider(providers.Primary, options.PrimaryConnections),
            Backup = Provider(providers.Backup, options.BackupConnections),
            Block = providers.Block is { } block ? Provider(block, options.BlockConnections) : null,
            Jobs = jobsResult,
            Memory = memory,
            HostPeakRssBytes = host.ChildPeakRssBytes ?? memory.PeakRssBytes,
            Dashboards = options.Dashboards,
            DashboardFrames = frames,
            DashboardError = dashboardError,
        };
    }

    private async Task OutageAsync(MockBehavior primary, SoakRecorder recorder, CancellationToken stop)
    {
        if (options.OutageSeconds == 0)
            return;
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(options.OutageStart), stop);
            recorder.OutageStarted();
            primary.Down = true;
            _logger.LogInformation("The primary is down for {Seconds} s", options.OutageSeconds);
            await Task.Delay(TimeSpan.FromSeconds(options.OutageSeconds), stop);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The run ended first (only when the outage was placed at its very end).
        }
        finally
        {
            if (primary.Down)
            {
                primary.Down = false;
                recorder.OutageEnded();
                _logger.LogInformation("The primary is back up");
            }
        }
    }

    private static SoakProviderReport Provider(MockNntpServer server, int cap) => new(
        cap, server.Stats.PeakConnections, server.Stats.TotalConnections, server.Stats.BytesSent,
        server.Stats.GetCommandCount(MockCommandKind.Body) + server.Stats.GetCommandCount(MockCommandKind.Article),
        server.Stats.RefusedWhileDown, server.Stats.DroppedByDown);
}
