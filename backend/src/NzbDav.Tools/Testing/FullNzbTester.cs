using NzbDav.Streaming;
using NzbDav.Streaming.Disk;
using NzbDav.Usenet.Health;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Tools.Testing;

/// <summary>
/// Runs the whole read path on one NZB and measures it: parse, first segment of every file,
/// open a stream on the largest file, scrub (seek + first read at 10/50/90/20 %), then a full
/// sequential read on a fresh stream. It configures its own limiter and streaming options for
/// benchmarking from the providers it is given; nothing is read from the environment.
/// </summary>
internal sealed partial class FullNzbTester(
    UsenetOptions usenet, ILoggerFactory loggerFactory, int scrapeMetricsMs = 0, IReadOnlyList<string>? sweepIds = null, string? diskCacheRoot = null,
    DiskSegmentStoreOptions? diskCache = null)
{
    private readonly ILogger<FullNzbTester> _logger = loggerFactory.CreateLogger<FullNzbTester>();

    /// <summary>Runs every step; <paramref name="expectedFor"/> gives a file's true bytes when known.</summary>
    public async Task<FullNzbTestReport> RunAsync(string nzbPath, Func<NzbFile, ExpectedBytesReader?> expectedFor, CancellationToken cancellationToken)
    {
        var allocatedAtStart = GC.GetTotalAllocatedBytes(precise: true);
        // With metrics on, the run records into the server's instruments and collects them as a scrape would.
        await using var metrics = scrapeMetricsMs > 0 ? TesterMetrics.Create() : null;
        if (metrics is not null)
        {
            // A running server has been scraped before: the first collection's JIT is not part of the cost measured.
            await metrics.ScrapeAsync(cancellationToken);
        }

        using var stopScraping = new CancellationTokenSource();
        var scraping = metrics is null ? null : MetricsScrapes.RunAsync(scrapeMetricsMs, metrics.ScrapeAsync, stopScraping.Token);
        var report = await RunStepsAsync(nzbPath, expectedFor, metrics, allocatedAtStart, cancellationToken);
        await stopScraping.CancelAsync();
        return scraping is null ? report : report with { Scrapes = await scraping };
    }

    private async Task<FullNzbTestReport> RunStepsAsync(
        string nzbPath, Func<NzbFile, ExpectedBytesReader?> expectedFor, TesterMetrics? metrics, long allocatedAtStart, CancellationToken cancellationToken)
    {
        var steps = new TimedStepRecorder(_logger);
        var document = await steps.RunAsync("Parse NZB", () => ParseAsync(nzbPath, cancellationToken), Describe);

        // Benchmark configuration, explicit: nothing else runs, so streaming is guaranteed the whole
        // budget (the seed's defaults left it one connection). Queue work, like the first-segment
        // step, still borrows idle capacity.
        var budget = LimiterOptions.BudgetOf(usenet.Providers);
        // With a sweep, the server's default shares: the sweep runs on the health-check pool as in
        // the server, and a player gets what it asks for first.
        var sweeping = sweepIds is { Count: > 0 };
        var limiter = new GlobalOperationLimiter(sweeping ? LimiterOptions.CreateDefault(budget) : new LimiterOptions { TotalConnections = budget });
        await using var client = new UsenetClient(
            usenet, new NntpConnectionFactory(loggerFactory, metrics?.Usenet), limiter, TimeProvider.System, loggerFactory.CreateLogger<UsenetClient>(), metrics?.Usenet);

        var headers = await steps.RunAsync(
            "Fetch first segments", () => FetchFirstSegmentsAsync(client, document.Files, cancellationToken), h => $"{h.Length} files, sizes and part sizes known");
        var largest = Enumerable.Range(0, headers.Length).MaxBy(i => headers[i].FileSize);
        var file = document.Files[largest];
        var header = headers[largest];

        // A cold disk cache when asked for: every segment read is looked up there first and written there after.
        var diskFolder = diskCacheRoot is null ? null : Directory.CreateDirectory(Path.Combine(diskCacheRoot, "nzbdav-b1-cache-" + Guid.NewGuid().ToString("N")));
        // Declared before the cache, so disposed after it: the folder goes once nothing writes there.
        using var removeFolder = new FolderRemoval(diskFolder);
        await using var disk = diskFolder is null ? null : new DiskSegmentCache(
            new FixedOptions<DiskSegmentStoreOptions>(WithPath(diskCache ?? new DiskSegmentStoreOptions(), diskFolder.FullName)), loggerFactory.CreateLogger<DiskSegmentCache>(), TimeProvider.System);
        if (disk is not null)
        {
            await disk.StartAsync(cancellationToken);
        }
        var factory = new NzbFileStreamFactory(client, new StreamingOptions { ConnectionsPerStream = budget }, loggerFactory, metrics?.Streaming, disk);
        // As the server does in the background once it listens (StartupWarmup): the first stream's
        // buffers are not allocated while its articles arrive.
        factory.WarmBuffers(cancellationToken);
        var verifier = new ReadVerifier(expectedFor(file));
        var counters = StreamCounters.Zero;

        // The first-segment step already learned the header, as ingestion stores it: opening fetches nothing.
        var scrubStream = await steps.RunAsync(
            "Open stream", () => factory.OpenAsync(file, header, cancellationToken), s => $"'{file.FileName}', {s.Length:N0} bytes");
        IReadOnlyList<ScrubResult> scrub;
        await using (scrubStream)
        {
            scrub = await ScrubAsync(scrubStream, verifier, cancellationToken);
        }

        counters = counters.Add(scrubStream.Statistics);
        SweepResult? sweepAlone = null, sweepDuringRead = null;
        SequentialPass sequential;
        if (sweeping)
        {
            await using var sweep = new StatSweep(client, OperationKind.HealthCheck);
            sweepAlone = await steps.RunAsync("Health sweep alone", () => SweepAsync(sweep, sweepIds!, untilDone: null, cancellationToken),
                s => $"{s.Articles:N0} STATs, {s.ArticlesPerSecond:N0}/s");
            using var readDone = new CancellationTokenSource();
            var during = SweepAsync(sweep, sweepIds!, readDone.Token, cancellationToken);
            // The worst case for a player: it starts while the sweep holds every connection it could borrow.
            var holding = System.Diagnostics.Stopwatch.GetTimestamp();
            while (limiter.GetStats().HealthCheckInUse < budget / 2 && System.Diagnostics.Stopwatch.GetElapsedTime(holding) < TimeSpan.FromSeconds(2))
            {
                await Task.Delay(10, cancellationToken);
            }
            _logger.LogInformation("The sweep holds {Held} connections as the sequential read starts", limiter.GetStats().HealthCheckInUse);
            try
            {
                sequential = await ReadSequentiallyAsync(factory, file, header, verifier, cancellationToken);
            }
            finally
            {
                await readDone.CancelAsync();
            }
            sweepDuringRead = await during;
        }
        else
        {
            sequential = await ReadSequentiallyAsync(factory, file, header, verifier, cancellationToken);
        }
        counters = counters.Add(sequential.Statistics);
        DiskCacheRead? diskRead = null;
        if (disk?.Store is { } store)
        {
            // A cached file read by a factory whose memory holds none of it: every segment from disk.
            // At least two passes, the last reported: the first runs the disk path's code for the
            // first time in this process (a running server has), and fetches and writes what the
            // first read could not queue (the disk behind a fast read); a third only if that left
            // something to fetch.
            SequentialPass? pass = null;
            for (var attempt = 1; attempt <= 3 && (attempt <= 2 || pass!.Statistics.BytesFetched > 0); attempt++)
            {
                await store.WhenIdleAsync(cancellationToken);
                var fromDisk = new NzbFileStreamFactory(client, new StreamingOptions { ConnectionsPerStream = budget }, loggerFactory, null, disk);
                fromDisk.WarmBuffers(cancellationToken);
                pass = await steps.RunAsync($"Sequential read from the disk cache ({attempt})", () => ReadSequentiallyAsync(fromDisk, file, header, verifier, cancellationToken),
                    p => $"{p.Bytes / 1e6 / p.Elapsed.TotalSeconds:F0} MB/s, first byte after {p.FirstByte.TotalMilliseconds:F1} ms, {p.Statistics.BytesFromDisk:N0} bytes from disk, {p.Statistics.BytesFetched:N0} fetched");
            }
            diskRead = new DiskCacheRead(pass!.Bytes, pass.Elapsed, pass.FirstByte, pass.Statistics.BytesFromDisk, pass.Statistics.BytesFetched, store.Written, store.DroppedWrites);
        }

        return new FullNzbTestReport
        {
            Source = Path.GetFileName(nzbPath),
            TotalFiles = document.Files.Count,
            TestedFile = file.FileName,
            FileSize = sequential.Length,
            Segments = file.Segments.Length,
            PartSize = header.PartSize,
            StreamConnections = budget,
            Steps = steps.Steps,
            Scrub = scrub,
            SequentialBytes = sequential.Bytes,
            SequentialElapsed = sequential.Elapsed,
            ReadTimes = sequential.ReadTimes,
            SweepAlone = sweepAlone,
            SweepDuringRead = sweepDuringRead,
            DiskCacheRead = diskRead,
            Streams = counters,
            Memory = MemoryUsage.Measure(allocatedAtStart),
            Verification = new VerificationResult(verifier.Enabled, verifier.VerifiedBytes, verifier.MismatchedReads, verifier.FirstMismatchOffset),
        };
    }

    /// <summary>
    /// STATs every id once (<paramref name="untilDone"/> null), or in chunks over and over until it
    /// is cancelled (the sequential read ended); answers what was answered and how long it took.
    /// </summary>
    private static async Task<SweepResult> SweepAsync(StatSweep sweep, IReadOnlyList<string> ids, CancellationToken? untilDone, CancellationToken cancellationToken)
    {
        const int Chunk = 16;
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        int present = 0, missing = 0, unknown = 0;
        var offset = 0;
        while (true)
        {
            if (untilDone is { IsCancellationRequested: true })
            {
                break;
            }
            var chunk = untilDone is null ? ids : ids.Skip(offset).Take(Chunk).ToArray();
            ArticleAvailability[] results;
            try
            {
                results = await sweep.CheckAsync(chunk, untilDone ?? cancellationToken);
            }
            catch (OperationCanceledException) when (untilDone is { IsCancellationRequested: true } && !cancellationToken.IsCancellationRequested)
            {
                break;
            }
            var counts = StatSweepCounts.Of(results);
            present += counts.Present;
            missing += counts.Missing;
            unknown += counts.Unknown;
            if (untilDone is null)
            {
                break;
            }
            offset = (offset + Chunk) % ids.Count;
        }
        return new SweepResult(present + missing + unknown, present, missing, unknown, System.Diagnostics.Stopwatch.GetElapsedTime(started));
    }

    private static DiskSegmentStoreOptions WithPath(DiskSegmentStoreOptions options, string path) => new()
    {
        Path = path,
        MaxBytes = options.MaxBytes,
        ProbeShare = options.ProbeShare,
        MaxQueuedWrites = options.MaxQueuedWrites,
        MaxQueuedBytes = options.MaxQueuedBytes,
        MaxSegmentBytes = options.MaxSegmentBytes,
        PlaybackWriteBytesPerSecond = options.PlaybackWriteBytesPerSecond,
        RetrySeconds = options.RetrySeconds,
    };

    private static string Describe(NzbDocument document)
    {
        var segments = document.Files.Sum(f => (long)f.Segments.Length);
        return $"{document.Files.Count} files, {segments:N0} segments";
    }

    private static async Task<NzbDocument> ParseAsync(string nzbPath, CancellationToken cancellationToken)
    {
        await using var stream = new FileStream(nzbPath, FileMode.Open, FileAccess.Read, FileShare.Read, 64 * 1024, useAsync: true);
        var document = await new NzbParser().ParseAsync(stream, cancellationToken);
        return document.Files.Count > 0 ? document : throw new InvalidDataException($"'{nzbPath}' contains no files.");
    }

    private static async Task<YencHeader[]> FetchFirstSegmentsAsync(UsenetClient client, IReadOnlyList<NzbFile> files, CancellationToken cancellationToken)
    {
        async Task<YencHeader> FetchAsync(NzbFile file)
        {
            var first = file.Segments.Span[0];
            var header = await client.BodyAsync(first.MessageId, () => new FirstSegmentTarget(), OperationKind.Queue, cancellationToken);
            return header.FileSize > 0 ? header : throw new InvalidDataException($"'{file.FileName}' (article {first.MessageId}) declares a size of 0.");
        }

        // Concurrently, like ingestion: the limiter and the pools keep it within the providers' caps.
        return await Task.WhenAll(files.Select(FetchAsync));
    }
}

/// <summary>Deletes a scratch folder when disposed (after the disk cache that wrote there has closed).</summary>
internal sealed class FolderRemoval(DirectoryInfo? folder) : IDisposable
{
    public void Dispose()
    {
        try
        {
            folder?.Delete(recursive: true);
        }
        catch (IOException)
        {
        }
    }
}

/// <summary>Settings that never change, for a tool's own services.</summary>
internal sealed class FixedOptions<T>(T value) : Microsoft.Extensions.Options.IOptionsMonitor<T>
{
    public T CurrentValue => value;

    public T Get(string? name) => value;

    public IDisposable? OnChange(Action<T, string?> listener) => null;
}

/// <summary>
/// The file read again by a fresh factory (its memory cache empty) over the disk cache the first read
/// filled: bytes, time, time to the first byte, bytes that came from disk and from providers, and
/// the segments written to disk (and dropped) by the first read.
/// </summary>
internal sealed record DiskCacheRead(long Bytes, TimeSpan Elapsed, TimeSpan FirstByte, long FromDiskBytes, long FetchedBytes, long SegmentsWritten, long WritesDropped)
{
    public double MBps => Elapsed > TimeSpan.Zero ? Bytes / 1e6 / Elapsed.TotalSeconds : 0;
}
