using NzbDav.Archives;
using NzbDav.Archives.Entries;
using NzbDav.Archives.Release;

namespace NzbDav.Server.Queue;

/// <summary>
/// Reads a volume set's archive headers (from the probed first articles, other articles fetched on
/// demand) and maps every stored entry onto the volumes' articles, so entries stream without extraction.
/// Compressed, solid, damaged or password-protected sets without the right password fail the set
/// with the reader's reason. Archives inside the archive are served as files, never opened.
/// </summary>
public sealed class ArchiveIngestor(ILogger<ArchiveIngestor> logger) : IArchiveIngestor
{
    private readonly ArchiveReader _reader = new();

    /// <inheritdoc />
    public async Task<IReadOnlyList<IngestedFile>> IngestAsync(VolumeSet<ProbedFile> volumes, string? password, IIngestionArticles articles, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volumes);
        ArgumentNullException.ThrowIfNull(articles);
        if (!volumes.IsComplete)
            throw new IngestionFailedException(volumes.GapReport!);
        var streams = volumes.Volumes.Select(v => new ArchiveVolumeStream(articles, v.Item, v.Name)).ToArray();
        var mirror = new TailMirror(streams);
        foreach (var stream in streams)
            stream.Mirror = mirror;
        try
        {
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
