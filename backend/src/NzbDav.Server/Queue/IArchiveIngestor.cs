using NzbDav.Archives.Release;

namespace NzbDav.Server.Queue;

/// <summary>
/// Turns a volume set (RAR, 7z, <c>.001</c> splits) into playable files by reading archive headers.
/// Implementations throw <see cref="IngestionFailedException"/> with a user-facing reason when the set
/// cannot be served (compressed, solid, missing volumes, unsupported).
/// </summary>
public interface IArchiveIngestor
{
    Task<IReadOnlyList<IngestedFile>> IngestAsync(VolumeSet<ProbedFile> volumes, string? password, IIngestionArticles articles, CancellationToken cancellationToken);
}
