namespace NzbDav.Tools.Testing.DavBenchmark;

// The concurrent phase: a second job of small files makes a tree to scan while streams play.
internal sealed partial class WebDavBenchmark
{
    private const string LibraryJob = "library";
    private const string StreamsJob = "streams";
    private const string GreedyJob = "greedy";

    private async Task<ConcurrentLoadResult> LoadAsync(
        BenchmarkHost host, DavReader reader, BenchmarkFile streamed, byte[] libraryNzb, long librarySize, MockBenchmarkServer mock, CancellationToken cancellationToken)
    {
        var libraryFolder = await host.WaitForCompletedAsync(await host.AddFileAsync(libraryNzb, LibraryJob + ".nzb", cancellationToken), cancellationToken);
        var library = Enumerable.Range(1, options.LibraryFiles)
            .Select(i => $"{LibraryJob}-{i:D3}.bin")
            .Select(name => new BenchmarkFile(libraryFolder + name, librarySize, mock.ExpectedFor(name)))
            .ToList();
        var streamedFolder = streamed.Path[..(streamed.Path.LastIndexOf('/') + 1)];
        string[] folders = ["/", "/content/", streamedFolder[..(streamedFolder.TrimEnd('/').LastIndexOf('/') + 1)], streamedFolder, libraryFolder, "/.ids/", "/completed/", "/nzbs/"];
        var scan = new LibraryScan(host.Http, reader, folders, [streamed, .. library], options);
        await using var hostile = options.HostileConnections > 0
            ? await HostileConnections.OpenAsync(host.Root, options.HostileConnections, cancellationToken)
            : null;
        if (hostile is not null)
            _logger.LogInformation("{Count} hostile connections open (half idle, half trickling a header)", options.HostileConnections);
        IReadOnlyList<BenchmarkFile> played = [streamed];
        if (options.DistinctFiles && options.Streams > 0)
        {
            // Ingested before the phase's clock and provider count start, as a library is before it is played.
            var folder = await host.WaitForCompletedAsync(await host.AddFileAsync(mock.AddFiles(StreamsJob, options.Streams, streamed.Size), StreamsJob + ".nzb", cancellationToken), cancellationToken);
            played = [.. Enumerable.Range(1, options.Streams)
                .Select(i => $"{StreamsJob}-{i:D3}.bin")
                .Select(name => new BenchmarkFile(folder + name, streamed.Size, mock.ExpectedFor(name)))];
            _logger.LogInformation("{Files} files of {Size:N0} bytes ingested, one per stream", played.Count, streamed.Size);
        }

        IReadOnlyList<BenchmarkFile> greedy = [];
        if (options.GreedyStreams > 0)
        {
            var folder = await host.WaitForCompletedAsync(await host.AddFileAsync(mock.AddFiles(GreedyJob, options.GreedyStreams, streamed.Size), GreedyJob + ".nzb", cancellationToken), cancellationToken);
            greedy = [.. Enumerable.Range(1, options.GreedyStreams)
                .Select(i => $"{GreedyJob}-{i:D3}.bin")
                .Select(name => new BenchmarkFile(folder + name, streamed.Size, mock.ExpectedFor(name)))];
            _logger.LogInformation("{Files} files of {Size:N0} bytes ingested for the greedy streams", greedy.Count, streamed.Size);
        }

        var par2 = options.Par2RepairMiB > 0 ? await PrepareRepairAsync(host, mock, cancellationToken) : default((Guid ItemId, BenchmarkFile File, int Articles, int Lost)?);
        var sentBefore = mock.Report().BytesSent;
        // The repair starts with the streams, and they play until it is over.
        var repairing = par2 is { } prepared ? RepairAsync(host, prepared.ItemId, cancellationToken) : null;
        var result = await new ConcurrentLoad(reader, scan, options, _logger).RunAsync(
            played, greedy, greedy.Count > 0 ? () => mock.Report().BytesSent : null, cancellationToken, repairing);
        result = result with { ProviderBytes = mock.Report().BytesSent - sentBefore, Hostile = hostile is null ? null : await hostile.StopAsync() };
        if (par2 is { } repaired)
            result = result with { Par2Repair = await VerifyRepairAsync(host, repaired.File, repaired.Articles, repaired.Lost, await repairing!, cancellationToken) };
        if (result.ProviderRate is { } rate)
        {
            _logger.LogInformation("Provider rate over {Seconds:F0} s with {Greedy} greedy streams: {Average:F1} MB/s (seconds from {Slowest:F1} to {Fastest:F1} MB/s)",
                rate.Seconds, result.GreedyStreams, rate.AverageBytesPerSecond / 1e6, rate.SlowestSecond / 1e6, rate.FastestSecond / 1e6);
        }
        if (result.Hostile is { } held)
            _logger.LogInformation("Hostile connections: {Cut} of {Slow} slow-header ones cut by the server, {Held} of {Idle} idle ones still held", held.SlowCut, held.Slow, held.IdleHeld, held.Idle);
        _logger.LogInformation(
            "Concurrent phase: {Streams} streams, worst read {MaxMs:F1} ms (p99 {P99Ms:F1} ms); {Propfinds} PROPFINDs p99 {PropfindP99Ms:F1} ms; {Headers} header reads p99 {HeaderP99Ms:F1} ms",
            result.Streams, result.StreamReads.MaxMs, result.StreamReads.P99Ms, result.Propfinds.Count, result.Propfinds.P99Ms, result.HeaderReads.Count, result.HeaderReads.P99Ms);
        return result;
    }
}
