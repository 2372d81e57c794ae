using System.Diagnostics;
using Microsoft.Extensions.Options;
using NzbDav.Archives.Release;
using NzbDav.Data;
using NzbDav.Data.Layout;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Queue;

/// <summary>
/// Ingests one job without downloading it: first article of every file (all pipelined at once) →
/// PAR2 names (from a PAR2 file's first article when it holds every description) → blocklist →
/// plain files become layouts directly, volume sets go to the <see cref="IArchiveIngestor"/>
/// concurrently, their headers read from the probed first articles.
/// </summary>
public sealed class JobIngestor(
    UsenetClient client,
    GlobalOperationLimiter limiter,
    INzbParser parser,
    ReleaseNamer namer,
    IOptionsMonitor<ReleaseBlocklistOptions> blocklistOptions,
    IArchiveIngestor archives,
    IOptionsMonitor<NzbDavOptions> options,
    ImportHealthCheck importCheck,
    ILogger<JobIngestor> logger)
{
    /// <param name="progress">Where the SABnzbd queue reads how far the job got; optional.</param>
    public async Task<IReadOnlyList<IngestedFile>> IngestAsync(string jobName, byte[] gzipNzb, string? password, CancellationToken cancellationToken, JobProgress? progress = null)
    {
        if (client.ProviderCount == 0)
            throw new IngestionFailedException("No Usenet provider is configured (Usenet:Providers).");
        var started = Stopwatch.GetTimestamp();
        // The patterns in force now: a change applies from the next job on.
        var blocklist = new ReleaseBlocklist(blocklistOptions.CurrentValue);
        progress?.Enter("Reading the NZB");
        var document = await ParseAsync(gzipNzb, cancellationToken);
        var parsed = Stopwatch.GetTimestamp();
        foreach (var dropped in document.DroppedFiles)
        {
            logger.LogWarning(
                "Job {JobName}: file {Subject} left out because {Reason} (NZB line {Line}, position {Position})",
                jobName, dropped.Subject, dropped.Reason, dropped.LineNumber, dropped.LinePosition);
        }

        var settings = options.CurrentValue.Queue;
        await using var fetcher = new ArticleFetcher(client, settings.ArticleConcurrency, QueueConnections(), cancellationToken, progress);
        var prober = new ArticleProber(fetcher, new HeadBudget(settings.HeadBytesPerJob));
        progress?.Enter("Reading the first article of each file");
        var probed = await prober.ProbeAsync(document.Files, cancellationToken);
        var probedAt = Stopwatch.GetTimestamp();
        progress?.Enter("Reading the PAR2 file names");
        var par2 = await ReadPar2Async(prober, probed, cancellationToken);
        var par2At = Stopwatch.GetTimestamp();

        var names = namer.Resolve(
            probed.Select(p => new ReleaseFileInput(p.File.Subject, null, p.Header.FileName, p.Header.FileSize, p.First16KMd5, p.Kind)).ToArray(),
            par2,
            jobName);
        var candidates = probed
            .Select(p => (File: p, names[p.Index].Name))
            .Where(c => c.File.Kind != ReleaseFileKind.Par2 && !blocklist.IsBlocked(c.Name))
            .ToList();
        var sets = VolumeSetGrouper.Group(candidates, c => c.Name);
        var inSets = sets.SelectMany(s => s.Volumes.Concat(s.Duplicates)).Select(v => v.Item.File.Index).ToHashSet();
        var volumeSets = sets.Select(set => new VolumeSet<ProbedFile>(set.BaseName, set.Scheme,
                set.Volumes.Select(v => new VolumeSetMember<ProbedFile>(v.Item.File, v.Name, v.Number)).ToList(),
                set.MissingNames,
                set.Duplicates.Select(v => new VolumeSetMember<ProbedFile>(v.Item.File, v.Name, v.Number)).ToList()))
            .ToList();
        var result = new List<IngestedFile>();
        foreach (var (file, name) in candidates.Where(c => !inSets.Contains(c.File.Index)))
        {
            // A lone .7z has no volume number, so the grouper leaves it out; it is still an archive.
            if (file.Kind == ReleaseFileKind.SevenZip && name.EndsWith(".7z", StringComparison.OrdinalIgnoreCase))
                volumeSets.Add(new VolumeSet<ProbedFile>(name[..^3], VolumeScheme.SevenZip, [new VolumeSetMember<ProbedFile>(file, name, 1)], [], []));
            else
                result.Add(new IngestedFile(name, PlainLayout(file, name)));
        }

        progress?.Enter("Reading archive headers");
        // Sets are independent: their on-demand header reads share the fetcher's pipelines.
        var outcomes = await Task.WhenAll(volumeSets.Select(set => IngestSetAsync(jobName, set, password, prober, cancellationToken)));
        string? archiveFailure = null;
        foreach (var (files, failure) in outcomes)
        {
            result.AddRange(files);
            archiveFailure ??= failure;
        }

        logger.LogInformation(
            "Ingestion steps of {JobName}: parse {ParseMs:F0} ms, first articles {ProbeMs:F0} ms ({Files} files), PAR2 {Par2Ms:F0} ms ({Par2Names} names), archives {ArchiveMs:F0} ms ({Sets} sets)",
            jobName, Stopwatch.GetElapsedTime(started, parsed).TotalMilliseconds, Stopwatch.GetElapsedTime(parsed, probedAt).TotalMilliseconds, probed.Length,
            Stopwatch.GetElapsedTime(probedAt, par2At).TotalMilliseconds, par2.Count, Stopwatch.GetElapsedTime(par2At).TotalMilliseconds, volumeSets.Count);
        if (!result.Any(f => !f.IsDirectory && IsPlayable(f.Name)))
            throw new IngestionFailedException(archiveFailure ?? "The NZB holds no playable files.");
        progress?.Enter("Checking that the articles exist");
        return await importCheck.CheckAsync(jobName, document, result, cancellationToken);
    }

    private async Task<NzbDocument> ParseAsync(byte[] gzipNzb, CancellationToken cancellationToken)
    {
        await using var stream = NzbCompression.OpenRead(gzipNzb);
        try
        {
            return await parser.ParseAsync(stream, cancellationToken);
        }
        catch (NzbFormatException ex)
        {
            throw new IngestionFailedException("Invalid NZB: " + ex.Message, ex);
        }
    }

    /// <summary>Leases one job may hold: what the limiter lets queue operations borrow.</summary>
    private int QueueConnections()
    {
        var limits = limiter.Options;
        return limits.QueueMaximum ?? limits.TotalConnections;
    }

    private async Task<(IReadOnlyList<IngestedFile> Files, string? Failure)> IngestSetAsync(
        string jobName, VolumeSet<ProbedFile> volumes, string? password, IIngestionArticles articles, CancellationToken cancellationToken)
    {
        try
        {
            return (await archives.IngestAsync(volumes, password, articles, cancellationToken), null);
        }
        catch (IngestionFailedException ex)
        {
            logger.LogWarning("Job {JobName}: volume set {BaseName} skipped: {Reason}", jobName, volumes.BaseName, ex.Message);
            return ([], ex.Message);
        }
    }

    private async Task<IReadOnlyList<Par2FileDescription>> ReadPar2Async(ArticleProber prober, ProbedFile[] probed, CancellationToken cancellationToken)
    {
        var par2Files = probed.Where(p => p.Kind == ReleaseFileKind.Par2).OrderBy(p => p.Header.FileSize).ToList();
        if (par2Files.Count == 0)
            return [];
        // PAR2 creators write the file descriptions right after the main packet, so a first article
        // usually holds all of them and the rest of the file is never fetched.
        foreach (var file in par2Files)
        {
            if (Par2Descriptions.FromHead(file) is { } described)
                return described;
        }

        // The smallest PAR2 file is the index: every file description and no recovery blocks.
        var index = par2Files[0];
        try
        {
            var data = await prober.FetchWholeAsync(index, cancellationToken);
            return data is null ? [] : Par2Reader.Read(data).Files;
        }
        catch (Exception ex) when (ex is IngestionFailedException or NzbDav.Archives.ArchiveFormatException)
        {
            // Names fall back to subjects and yEnc headers; a damaged PAR2 must not fail the job.
            logger.LogWarning("PAR2 {Par2} unreadable, naming without it: {Reason}", index.Header.FileName, ex.Message);
            return [];
        }
    }

    private static DavFileLayout PlainLayout(ProbedFile file, string name)
    {
        var segments = file.File.Segments.Span;
        if (file.File.IncompleteReason is { } incomplete)
            throw new IngestionFailedException($"'{name}' is incomplete: {incomplete}.");
        var partSize = file.PartSize;
        var expected = partSize <= 0 ? 1 : (file.Header.FileSize + partSize - 1) / partSize;
        if (file.Header.FileSize > 0 && expected != segments.Length)
            throw new IngestionFailedException($"'{name}' has {segments.Length} articles but its yEnc size {file.Header.FileSize} with {partSize}-byte parts needs {expected}.");
        var ids = new string[segments.Length];
        for (var i = 0; i < ids.Length; i++)
            ids[i] = segments[i].MessageId;
        return new DavFileLayout([LayoutPart.WholeFile(ids, file.Header.FileSize, partSize)]);
    }

    // Release extras alone make no job; anything else (video, audio, unknown payload) is content.
    private static bool IsPlayable(string name) =>
        ReleaseFileClassifier.ClassifyName(name) is not (ReleaseFileKind.Nfo or ReleaseFileKind.Checksum or ReleaseFileKind.Text
            or ReleaseFileKind.Image or ReleaseFileKind.Par2);
}
