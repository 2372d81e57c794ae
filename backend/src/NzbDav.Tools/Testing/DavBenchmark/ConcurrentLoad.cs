using System.Diagnostics;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// The Plex-like phase: <see cref="WebDavBenchmarkOptions.Streams"/> whole-file GETs play (paced
/// at <see cref="WebDavBenchmarkOptions.StreamMbps"/>); once every one has started, a scan of
/// PROPFINDs and header reads runs with <see cref="WebDavBenchmarkOptions.ScanConcurrency"/>
/// requests in flight; the streams keep playing until the scan is over and at least
/// <see cref="WebDavBenchmarkOptions.StreamSeconds"/> have passed, then close their requests.
/// </summary>
internal sealed class ConcurrentLoad(DavReader reader, LibraryScan scan, WebDavBenchmarkOptions options, ILogger logger)
{
    /// <summary>Plays stream i on <c>files[i % files.Count]</c>: one file for all, or one each.</summary>
    public async Task<ConcurrentLoadResult> RunAsync(IReadOnlyList<BenchmarkFile> files, CancellationToken cancellationToken) =>
        await RunAsync(files, [], null, cancellationToken);

    /// <summary>
    /// As above, with a greedy stream on each of <paramref name="greedy"/> (reading as fast as the
    /// server sends, from the start again at the end) and the provider's byte count
    /// (<paramref name="providerBytes"/>) sampled every second while all of them run.
    /// </summary>
    /// <param name="until">Work that runs beside the streams (a PAR2 repair): they keep playing until it ends too.</param>
    public async Task<ConcurrentLoadResult> RunAsync(
        IReadOnlyList<BenchmarkFile> files, IReadOnlyList<BenchmarkFile> greedy, Func<long>? providerBytes, CancellationToken cancellationToken, Task? until = null)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var allStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var pending = options.Streams;
        if (pending == 0)
            allStarted.SetResult();
        void Started()
        {
            if (Interlocked.Decrement(ref pending) == 0)
                allStarted.TrySetResult();
        }

        var bytesPerSecond = options.StreamMbps * 1_000_000L / 8;
        var blockTimes = Enumerable.Range(0, options.Streams).Select(_ => new List<double>()).ToArray();
        var started = Stopwatch.GetTimestamp();
        var played = Enumerable.Range(0, options.Streams).Select(i => files[i % files.Count]).ToArray();
        var streams = blockTimes
            .Select((times, i) => PlayAsync(played[i], new Playback(bytesPerSecond, times, Started, stop.Token), stop, cancellationToken))
            .ToArray();
        var playing = Task.WhenAll(streams);
        var downloading = Task.WhenAll(greedy.Select(file => GreedyAsync(file, stop, cancellationToken)));

        // A stream that fails before its first block ends the wait too; its error surfaces below.
        await Task.WhenAny(allStarted.Task, playing);
        var sampling = providerBytes is null ? Task.FromResult(new List<(double, long)>()) : SampleAsync(providerBytes, stop.Token);
        logger.LogInformation("{Streams} streams playing at {Mbps} Mbit/s; scanning the library", options.Streams, options.StreamMbps);
        var scanResult = await scan.RunAsync(cancellationToken);
        var remaining = TimeSpan.FromSeconds(options.StreamSeconds) - Stopwatch.GetElapsedTime(started);
        if (remaining > TimeSpan.Zero)
            await Task.WhenAny(Task.Delay(remaining, cancellationToken), playing);
        if (until is not null)
            await Task.WhenAny(until, playing);
        await stop.CancelAsync();
        var results = await playing;
        var greedyBytes = await downloading;
        var samples = await sampling;
        var elapsed = Stopwatch.GetElapsedTime(started);

        var later = blockTimes.SelectMany(t => t.Skip(1)).ToList();
        return new ConcurrentLoadResult
        {
            Streams = options.Streams,
            StreamMbps = options.StreamMbps,
            Elapsed = elapsed,
            SlowestStart = TimeSpan.FromMilliseconds(blockTimes.Select(t => t.Count > 0 ? t[0] : 0).DefaultIfEmpty(0).Max()),
            StreamReads = LatencySummary.From(later),
            StreamBytes = results.Sum(r => r.Bytes),
            StreamsAtEnd = results.Where((r, i) => r.Bytes == played[i].Size).Count(),
            DistinctFiles = played.Select(f => f.Path).Distinct(StringComparer.Ordinal).Count(),
            Propfinds = scanResult.Propfinds,
            HeaderReads = scanResult.HeaderReads,
            HeaderBytes = scanResult.HeaderBytes,
            ScanElapsed = scanResult.Elapsed,
            GreedyStreams = greedy.Count,
            GreedyBytes = greedyBytes.Sum(),
            ProviderRate = ProviderRateResult.From(samples),
        };
    }

    private async Task<long> GreedyAsync(BenchmarkFile file, CancellationTokenSource stop, CancellationToken cancellationToken)
    {
        await Task.Yield();
        long total = 0;
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var measured = await reader.ReadAsync(file.Path, file.Expected, 0, file.Size, ranged: false, new Playback(0, [], static () => { }, stop.Token), cancellationToken);
                total += measured.Bytes;
            }
        }
        catch
        {
            await stop.CancelAsync();
            throw;
        }
        return total;
    }

    /// <summary>The provider's byte count now and then every second until the phase stops.</summary>
    private static async Task<List<(double Seconds, long Bytes)>> SampleAsync(Func<long> providerBytes, CancellationToken stop)
    {
        var started = Stopwatch.GetTimestamp();
        var samples = new List<(double, long)> { (0, providerBytes()) };
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
                samples.Add((Stopwatch.GetElapsedTime(started).TotalSeconds, providerBytes()));
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The phase is over.
        }
        return samples;
    }

    private async Task<GetMeasurement> PlayAsync(BenchmarkFile file, Playback playback, CancellationTokenSource stop, CancellationToken cancellationToken)
    {
        // Off the caller's context, so the four streams and the scan run side by side.
        await Task.Yield();
        try
        {
            return await reader.ReadAsync(file.Path, file.Expected, 0, file.Size, ranged: false, playback, cancellationToken);
        }
        catch
        {
            // One failed stream ends the phase for all, instead of the others playing on for minutes.
            await stop.CancelAsync();
            throw;
        }
    }
}
