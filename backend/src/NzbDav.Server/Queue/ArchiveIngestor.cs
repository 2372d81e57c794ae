using Microsoft.Extensions.Options;
using NzbDav.Archives;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Release;
using NzbDav.Server.Configuration;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Queue;

/// <summary>
/// Reads a volume set's archive headers over Usenet (queue operations, articles fetched on demand)
/// and maps every stored entry onto the volumes' articles, so entries stream without extraction.
/// Compressed, solid, damaged or password-protected sets without the right password fail the set
/// with the reader's reason. Archives inside the archive are served as files, never opened.
/// </summary>
public sealed class ArchiveIngestor(
    IServiceProvider services,
    IOptionsMonitor<NzbDavOptions> options,
    ILogger<ArchiveIngestor> logger) : IArchiveIngestor
{
    // End-of-archive headers (RAR) and the 7z header database sit at the end of a volume.
    private const long TailBytes = 4096;

    private readonly ArchiveReader _reader = new();

    /// <inheritdoc />
    public async Task<IReadOnlyList<IngestedFile>> IngestAsync(VolumeSet<ProbedFile> volumes, string? password, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volumes);
        if (!volumes.IsComplete)
            throw new IngestionFailedException(volumes.GapReport!);
        var client = services.GetService<UsenetClient>()
            ?? throw new IngestionFailedException("No Usenet provider is configured (Usenet:Providers).");
        var concurrency = Math.Max(1, options.CurrentValue.Queue.ArticleConcurrency);
        var prober = new ArticleProber(client, concurrency);
        var streams = volumes.Volumes.Select(v => new ArchiveVolumeStream(prober, v.Item, v.Name)).ToArray();
        try
        {
            // The reader walks volumes one after another; fetching every tail first turns one round
            // trip per volume into a few for the whole set.
            await Parallel.ForEachAsync(streams, new ParallelOptions { MaxDegreeOfParallelism = concurrency, CancellationToken = cancellationToken },
                async (stream, ct) => await stream.PrefetchTailAsync(TailBytes, ct));
            var listing = await ReadListingAsync(volumes.BaseName, streams, password, cancellationToken);
            logger.LogInformation("Volume set {BaseName}: {Format}, {Volumes} volume(s), {Entries} entries",
                volumes.BaseName, listing.Format, listing.VolumeCount, listing.Entries.Count);
            return ArchiveLayouts.Map(listing, streams, logger);
        }
        finally
        {
            foreach (var stream in streams)
                await stream.DisposeAsync();
        }
    }

    private async Task<ArchiveListing> ReadListingAsync(string baseName, ArchiveVolumeStream[] streams, string? password, CancellationToken cancellationToken)
    {
        try
        {
            return await _reader.ReadAsync(streams, password, cancellationToken);
        }
        catch (ArchivePasswordException ex)
        {
            throw new IngestionFailedException(password is null
                ? $"'{baseName}' is password-protected and no password was given (add <meta type=\"password\"> to the NZB or {{{{password}}}} to its name): {ex.Message}"
                : $"'{baseName}' could not be opened with the given password: {ex.Message}", ex);
        }
        catch (UnsupportedArchiveException ex)
        {
            throw new IngestionFailedException($"'{baseName}' cannot be streamed: {ex.Message}", ex);
        }
        catch (ArchiveFormatException ex)
        {
            throw new IngestionFailedException($"'{baseName}' is damaged or incomplete: {ex.Message}", ex);
        }
    }
}
