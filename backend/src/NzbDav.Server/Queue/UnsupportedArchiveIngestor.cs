using NzbDav.Archives.Release;

namespace NzbDav.Server.Queue;

/// <summary>Until the archive readers land: every volume set is reported as unsupported.</summary>
public sealed class UnsupportedArchiveIngestor : IArchiveIngestor
{
    public const string Reason = "archives are not supported yet";

    public Task<IReadOnlyList<IngestedFile>> IngestAsync(VolumeSet<ProbedFile> volumes, string? password, CancellationToken cancellationToken) =>
        throw new IngestionFailedException(Reason);
}
