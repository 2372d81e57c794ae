namespace NzbDav.Archives.Release;

/// <summary>
/// Pairs files with PAR2 descriptions by 16 KiB MD5 and length. Each description is handed out once while
/// unused ones remain, so files sharing a first 16 KiB still get distinct names; order is deterministic.
/// </summary>
internal sealed class Par2Matcher
{
    private readonly Dictionary<Hash16, List<Par2FileDescription>> _byQuickHash = [];
    private readonly HashSet<Par2FileDescription> _used = [];

    public Par2Matcher(IEnumerable<Par2FileDescription> descriptions)
    {
        // The same file appears in every recovery volume, sometimes in several recovery sets.
        var distinct = descriptions
            .DistinctBy(d => (d.First16KMd5, d.FileMd5, d.Length, d.Name))
            .OrderBy(d => d.Name, StringComparer.Ordinal);
        foreach (var description in distinct)
        {
            if (!_byQuickHash.TryGetValue(description.First16KMd5, out var list))
            {
                _byQuickHash[description.First16KMd5] = list = [];
            }

            list.Add(description);
        }
    }

    public Par2FileDescription? Take(ReleaseFileInput file)
    {
        if (file.First16KMd5 is not { } hash || !_byQuickHash.TryGetValue(hash, out var candidates))
        {
            return null;
        }

        var fitting = candidates.Where(d => file.Size is not { } size || d.Length == size).ToList();
        var pick = fitting.Find(d => !_used.Contains(d)) ?? fitting.FirstOrDefault();
        if (pick is not null)
        {
            _used.Add(pick);
        }

        return pick;
    }
}
