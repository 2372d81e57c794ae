namespace NzbDav.Tools.Testing.DavBenchmark;

// The concurrent phase: a second job of small files makes a tree to scan while streams play.
internal sealed partial class WebDavBenchmark
{
    private const string LibraryJob = "library";

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
        var sentBefore = mock.Report().BytesSent;
        var result = await new ConcurrentLoad(reader, scan, options, _logger).RunAsync(streamed, cancellationToken);
        result = result with { ProviderBytes = mock.Report().BytesSent - sentBefore };
        _logger.LogInformation(
            "Concurrent phase: {Streams} streams, worst read {MaxMs:F1} ms (p99 {P99Ms:F1} ms); {Propfinds} PROPFINDs p99 {PropfindP99Ms:F1} ms; {Headers} header reads p99 {HeaderP99Ms:F1} ms",
            result.Streams, result.StreamReads.MaxMs, result.StreamReads.P99Ms, result.Propfinds.Count, result.Propfinds.P99Ms, result.HeaderReads.Count, result.HeaderReads.P99Ms);
        return result;
    }
}
