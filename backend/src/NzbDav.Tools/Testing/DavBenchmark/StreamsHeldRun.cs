using System.Diagnostics;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// <c>--test-webdav --streams-held=MBps</c>: how many players, each on a file of its own, one server
/// (or <see cref="WebDavBenchmarkOptions.HeldNodes"/> nodes on one PostgreSQL library) holds at a
/// given rate. Each server runs as a child process (this build's NzbDav.dll) so its peak RSS is its
/// own; the mock provider and the players run here. Steps of N streams, N from
/// <see cref="WebDavBenchmarkOptions.HeldStart"/> up by <see cref="WebDavBenchmarkOptions.HeldStep"/>:
/// each plays <see cref="WebDavBenchmarkOptions.HeldSeconds"/> and holds when every stream received at
/// least <see cref="HeldFraction"/> of its rate and no read after a stream's first waited more than
/// <see cref="WaitLimit"/>. The search ends at the first step that does not hold.
/// </summary>
internal sealed class StreamsHeldRun(WebDavBenchmarkOptions options, ILoggerFactory loggerFactory)
{
    public const double HeldFraction = 0.95;
    public static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(1);
    private const string Job = "held";

    // Files outlast a step by this much, so a stream that caught up after a slow start never ends early.
    private const int SpareSeconds = 15;

    // How long the store's idle traffic is counted before the first step (PostgreSQL only).
    private static readonly TimeSpan IdleWindow = TimeSpan.FromSeconds(5);

    private readonly ILogger<StreamsHeldRun> _logger = loggerFactory.CreateLogger<StreamsHeldRun>();

    public async Task<StreamsHeldReport> RunAsync(CancellationToken cancellationToken)
    {
        var mockOptions = options.Mock;
        var bytesPerSecond = options.StreamsHeldMBps * 1_000_000L;
        var segment = mockOptions.SegmentSizeKiB * 1024L;
        var fileSize = ((bytesPerSecond * (options.HeldSeconds + SpareSeconds)) + segment - 1) / segment * segment;
        await using var mock = await MockBenchmarkServer.StartAsync(mockOptions, cancellationToken);
        var nzb = mock.AddFiles(Job, options.HeldMax, fileSize);
        _logger.LogInformation("Mock NNTP server on 127.0.0.1:{Port}: {Files} files of {Size:N0} bytes, latency {LatencyMs}±{JitterMs} ms, {Connections} connections",
            mock.Provider.Port, options.HeldMax, fileSize, mockOptions.LatencyMs, mockOptions.JitterMs, mockOptions.Connections);

        var tally = new VerificationTally();
        var steps = new List<StreamsHeldStep>();
        await using var library = options.HeldPostgres is { } server ? await HeldLibrary.CreateAsync(server, cancellationToken) : null;
        var hosts = new List<BenchmarkHost>();
        double? idleTransactionsPerSecond = null;
        try
        {
            for (var node = 0; node < options.HeldNodes; node++)
            {
                // One after another: the first migrates the library, the others find it made.
                hosts.Add(await BenchmarkHost.StartChildAsync(
                    BenchmarkHost.MockProvider(mock.Provider.Port, mockOptions.Connections),
                    [.. mockOptions.ConfigurationArguments, .. library?.NodeArguments($"node-{node + 1}") ?? []], cancellationToken));
            }

            foreach (var host in hosts)
                await host.WaitUntilReadyAsync(cancellationToken);
            var folder = await hosts[0].WaitForCompletedAsync(await hosts[0].AddFileAsync(nzb, Job + ".nzb", cancellationToken), cancellationToken);
            var files = Enumerable.Range(1, options.HeldMax)
                .Select(i => $"{Job}-{i:D3}.bin")
                .Select(name => new BenchmarkFile(folder + name, fileSize, mock.ExpectedFor(name)))
                .ToList();
            var readers = hosts.Select(h => new DavReader(h.Http, tally)).ToList();
            if (library is not null)
            {
                // What the nodes ask of the store with nothing playing: heartbeats, lease steps, the queue's and health's polls.
                var before = await library.TransactionsAsync(cancellationToken);
                await Task.Delay(IdleWindow, cancellationToken);
                idleTransactionsPerSecond = (await library.TransactionsAsync(cancellationToken) - before) / IdleWindow.TotalSeconds;
            }

            for (var streams = options.HeldStart; streams <= options.HeldMax; streams += options.HeldStep)
            {
                var step = await RunStepAsync(readers, files.Take(streams).ToList(), bytesPerSecond, mock, hosts, library, cancellationToken);
                steps.Add(step);
                _logger.LogInformation(
                    "{Streams} streams at {MBps} MB/s on {Nodes} node(s): {Verdict}; slowest stream {Fraction:P1} of its rate, worst read {WorstMs:F0} ms, slowest start {StartMs:F0} ms, fetched/served {Ratio:F3}, largest node's peak RSS {RssMB:F0} MB, store transactions {PerSecond}/s",
                    streams, options.StreamsHeldMBps, hosts.Count, step.Held ? "held" : "NOT held", step.SlowestFraction, step.WorstWaitMs, step.SlowestStartMs, step.FetchedToServed,
                    step.ServerPeakRssBytes / 1e6, step.StoreTransactionsPerSecond?.ToString("F1", System.Globalization.CultureInfo.InvariantCulture) ?? "-");
                if (!step.Held || tally.Result().MismatchedReads > 0)
                    break;
            }
        }
        finally
        {
            foreach (var host in hosts)
                await host.DisposeAsync();
        }

        return new StreamsHeldReport
        {
            RateMBps = options.StreamsHeldMBps,
            Seconds = options.HeldSeconds,
            FileSize = fileSize,
            Nodes = options.HeldNodes,
            Store = library is null ? "sqlite" : "postgres",
            IdleStoreTransactionsPerSecond = idleTransactionsPerSecond,
            Mock = mock.Report(),
            Steps = steps,
            Verification = tally.Result(),
        };
    }

    private async Task<StreamsHeldStep> RunStepAsync(
        List<DavReader> readers, List<BenchmarkFile> files, long bytesPerSecond, MockBenchmarkServer mock, List<BenchmarkHost> hosts,
        HeldLibrary? library, CancellationToken cancellationToken)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var blockTimes = files.Select(_ => new List<double>()).ToArray();
        var sentBefore = mock.Report().BytesSent;
        var transactionsBefore = library is null ? 0 : await library.TransactionsAsync(cancellationToken);
        var started = Stopwatch.GetTimestamp();
        // File i is served by node i mod N: one node per file, as a load balancer hashing the path sends it.
        var plays = files
            .Select((file, i) => PlayAsync(readers[i % readers.Count], file, new Playback(bytesPerSecond, blockTimes[i], static () => { }, stop.Token), cancellationToken))
            .ToArray();
        await Task.WhenAny(Task.Delay(TimeSpan.FromSeconds(options.HeldSeconds), cancellationToken), Task.WhenAll(plays));
        await stop.CancelAsync();
        var results = await Task.WhenAll(plays);
        double? perSecond = library is null
            ? null
            : (await library.TransactionsAsync(cancellationToken) - transactionsBefore) / Stopwatch.GetElapsedTime(started).TotalSeconds;

        var served = results.Sum(r => r.Measurement?.Bytes ?? 0);
        var fetched = mock.Report().BytesSent - sentBefore;
        var fractions = results.Select(r => r.Measurement is { Elapsed.TotalSeconds: > 0 } m ? m.Bytes / (m.Elapsed.TotalSeconds * bytesPerSecond) : 0).ToList();
        var later = blockTimes.SelectMany(t => t.Skip(1)).ToList();
        var failures = results.Where(r => r.Error is not null).Select(r => r.Error!).ToList();
        var slowest = fractions.Min();
        var worst = later.Count > 0 ? later.Max() : 0;
        return new StreamsHeldStep
        {
            Streams = files.Count,
            SlowestFraction = slowest,
            MedianFraction = fractions.Order().ElementAt(fractions.Count / 2),
            WorstWaitMs = worst,
            Reads = LatencySummary.From(later),
            SlowestStartMs = blockTimes.Select(t => t.Count > 0 ? t[0] : 0).Max(),
            ServedBytes = served,
            FetchedBytes = fetched,
            ServerPeakRssBytes = hosts.Max(h => h.ChildPeakRssBytes ?? 0),
            StoreTransactionsPerSecond = perSecond,
            Failures = failures,
            Held = failures.Count == 0 && slowest >= HeldFraction && worst <= WaitLimit.TotalMilliseconds,
        };
    }

    private static async Task<(GetMeasurement? Measurement, string? Error)> PlayAsync(
        DavReader reader, BenchmarkFile file, Playback playback, CancellationToken cancellationToken)
    {
        // Off the caller's context, so the streams start side by side.
        await Task.Yield();
        var started = Stopwatch.GetTimestamp();
        try
        {
            return (await reader.ReadAsync(file.Path, file.Expected, 0, file.Size, ranged: false, playback, cancellationToken), null);
        }
        catch (Exception error) when (error is HttpRequestException or IOException or InvalidDataException && !cancellationToken.IsCancellationRequested)
        {
            // A stream the server dropped or refused does not hold; the step says why.
            return (null, $"{file.Path} after {Stopwatch.GetElapsedTime(started).TotalSeconds:F1} s: {error.Message}");
        }
    }
}
