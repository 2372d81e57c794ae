namespace NzbDav.Server.Queue;

/// <summary>
/// Volumes of a set are laid out alike. When a reader walks them in order and needs an article at
/// the end of one (an end block it could not skip, a recovery record's header, a 7z header), it
/// will need the same article of every later volume: fetching those at once, pipelined, makes that
/// one round trip for the set instead of one per volume.
/// </summary>
internal sealed class TailMirror(IReadOnlyList<ArchiveVolumeStream> volumes)
{
    // Only end-of-volume structures repeat across volumes; entries' headers elsewhere do not.
    private const int TailArticles = 2;

    private readonly Lock _gate = new();
    private readonly HashSet<int> _mirrored = [];

    public void OnFetched(ArchiveVolumeStream volume, int segment, CancellationToken cancellationToken)
    {
        var fromEnd = volume.ArticleCount - 1 - segment;
        if (segment == 0 || fromEnd >= TailArticles)
            return;
        lock (_gate)
        {
            if (!_mirrored.Add(fromEnd))
                return;
        }

        for (var i = IndexOf(volume) + 1; i < volumes.Count; i++)
        {
            var later = volumes[i];
            // The last article of any volume holds its end; the one before only lines up between volumes of one size.
            if (fromEnd == 0 || later.Length == volume.Length)
                later.Prefetch(later.ArticleCount - 1 - fromEnd, cancellationToken);
        }
    }

    private int IndexOf(ArchiveVolumeStream volume)
    {
        for (var i = 0; i < volumes.Count; i++)
        {
            if (ReferenceEquals(volumes[i], volume))
                return i;
        }

        return volumes.Count;
    }
}
