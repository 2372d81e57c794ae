using Microsoft.Extensions.Options;
using NzbDav.Archives.Release;
using NzbDav.Data;
using NzbDav.Data.Layout;
using NzbDav.Server.Configuration;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Queue;

/// <summary>
/// Ingests one job without downloading it: first article of every file → PAR2 names → blocklist →
/// plain files become layouts directly, volume sets go to the <see cref="IArchiveIngestor"/>.
/// </summary>
public sealed class JobIngestor(
    IServiceProvider services,
    INzbParser parser,
    ReleaseNamer namer,
    ReleaseBlocklist blocklist,
    IArchiveIngestor archives,
    IOptionsMonitor<NzbDavOptions> options,
    ILogger<JobIngestor> logger)
{
    public async Task<IReadOnlyList<IngestedFile>> IngestAsync(string jobName, byte[] gzipNzb, string? password, CancellationToken cancellationToken)
    {
        // The client exists only when providers are configured; without one a job cannot be ingested.
        var client = services.GetService<UsenetClient>()
            ?? throw new IngestionFailedException("No Usenet provider is configured (Usenet:Providers).");
        NzbDocument document;
        await using (var stream = NzbCompression.OpenRead(gzipNzb))
        {
            try
            {
                document = await parser.ParseAsync(stream, cancellationToken);
            }
            catch (NzbFormatException ex)
            {
                throw new IngestionFailedException("Invalid NZB: " + ex.Message, ex);
            }
        }

        var prober = new ArticleProber(client, options.CurrentValue.Queue.ArticleConcurrency);
        var probed = await prober.ProbeAsync(document.Files, cancellationToken);
        var par2 = await ReadPar2Async(prober, probed, cancellationToken);
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

        string? archiveFailure = null;
        foreach (var volumes in volumeSets)
        {
            try
            {
                result.AddRange(await archives.IngestAsync(volumes, password, cancellationToken));
            }
            catch (IngestionFailedException ex)
            {
                archiveFailure ??= ex.Message;
                logger.LogWarning("Job {JobName}: volume set {BaseName} skipped: {Reason}", jobName, volumes.BaseName, ex.Message);
            }
        }

        if (!result.Any(f => !f.IsDirectory && IsPlayable(f.Name)))
        {
            throw new IngestionFailedException(archiveFailure ?? "The NZB holds no playable files.");
        }

        return result;
    }

    private async Task<IReadOnlyList<Par2FileDescription>> ReadPar2Async(ArticleProber prober, ProbedFile[] probed, CancellationToken cancellationToken)
    {
        // The smallest PAR2 file is the index: it has every file description and no recovery blocks.
        var index = probed.Where(p => p.Kind == ReleaseFileKind.Par2).MinBy(p => p.Header.FileSize);
        if (index is null)
            return [];
        try
        {
            var data = await prober.FetchWholeAsync(index, cancellationToken);
            return data is null ? [] : Par2Reader.Read(data).Files;
        }
        catch (IngestionFailedException ex)
        {
            // Names fall back to subjects and yEnc headers; a damaged PAR2 must not fail the job.
            logger.LogWarning("PAR2 {Par2} unreadable, naming without it: {Reason}", index.Header.FileName, ex.Message);
            return [];
        }
    }

    private static DavFileLayout PlainLayout(ProbedFile file, string name)
    {
        var segments = file.File.Segments.Span;
        if (file.File.MissingSegmentNumbers.Count > 0)
            throw new IngestionFailedException($"'{name}' is incomplete: the NZB lacks segment(s) {string.Join(", ", file.File.MissingSegmentNumbers.Take(10))}.");
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
