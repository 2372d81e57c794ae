namespace NzbDav.Archives.Release;

/// <summary>Groups release files into ordered volume sets by name (<see cref="VolumeScheme"/>).</summary>
public static class VolumeSetGrouper
{
    /// <summary>
    /// Finds every volume set among <paramref name="items"/>; items that are not volumes are left out.
    /// Sets are ordered by base name, volumes by number. Base names compare case-insensitively.
    /// </summary>
    public static IReadOnlyList<VolumeSet<T>> Group<T>(IEnumerable<T> items, Func<T, string> nameOf)
    {
        ArgumentNullException.ThrowIfNull(items);
        ArgumentNullException.ThrowIfNull(nameOf);
        var groups = new Dictionary<(string, VolumeScheme), List<(T Item, string Name, VolumeName Volume)>>();
        foreach (var item in items)
        {
            var name = nameOf(item);
            if (!VolumeName.TryParse(name, out var volume))
            {
                continue;
            }

            var key = (volume.BaseName.ToUpperInvariant(), volume.Scheme);
            if (!groups.TryGetValue(key, out var list))
            {
                groups[key] = list = [];
            }

            list.Add((item, name, volume));
        }

        return groups.Values
            .Select(Build)
            .OrderBy(set => set.BaseName, StringComparer.OrdinalIgnoreCase)
            .ThenBy(set => set.Scheme)
            .ToList();
    }

    /// <summary>Items of one set in order; the convenience form of <see cref="Group{T}"/> for plain names.</summary>
    public static IReadOnlyList<VolumeSet<string>> Group(IEnumerable<string> names) => Group(names, n => n);

    private static VolumeSet<T> Build<T>(List<(T Item, string Name, VolumeName Volume)> members)
    {
        // Stable sort: of two items with one number (a repost), the first in input order is the volume.
        var ordered = members.OrderBy(m => m.Volume.Number).ToList();
        var scheme = ordered[0].Volume.Scheme;

        // A lone "name.rar" or "name.001" is a set of one; a lone "name.r05" is still a set with a gap.
        var volumes = new List<VolumeSetMember<T>>();
        var duplicates = new List<VolumeSetMember<T>>();
        foreach (var (item, name, volume) in ordered)
        {
            var member = new VolumeSetMember<T>(item, name, volume.Number);
            (volumes.Count > 0 && volumes[^1].Number == volume.Number ? duplicates : volumes).Add(member);
        }

        var first = scheme == VolumeScheme.RarOld ? 0 : Math.Min(1, volumes[0].Number);
        // Missing volumes are spelled like a numbered member: "name.rar" carries no digit width.
        var spelling = ordered.FirstOrDefault(m => m.Volume.Number > 0, ordered[0]).Volume;
        var present = volumes.Select(v => v.Number).ToHashSet();
        var missing = Enumerable.Range(first, volumes[^1].Number - first + 1)
            .Where(n => !present.Contains(n))
            .Select(spelling.NameOf)
            .ToList();
        return new VolumeSet<T>(ordered[0].Volume.BaseName, scheme, volumes, missing, duplicates);
    }
}
