namespace NzbDav.Archives.Release;

/// <summary>
/// Makes names unique case-insensitively (WebDAV clients and rclone mounts may be case-insensitive).
/// Better-sourced names keep their spelling; later ones get " (2)", " (3)"… before the extension.
/// </summary>
internal static class ReleaseNameDeduplicator
{
    public static string[] MakeUnique(IReadOnlyList<(string Name, ReleaseNameSource Source)> names)
    {
        var result = new string[names.Count];
        var taken = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var order = Enumerable.Range(0, names.Count).OrderBy(i => names[i].Source).ThenBy(i => i);
        foreach (var i in order)
        {
            var name = names[i].Name;
            for (var n = 2; !taken.Add(name); n++)
            {
                name = WithSuffix(names[i].Name, n);
            }

            result[i] = name;
        }

        return result;
    }

    private static string WithSuffix(string name, int n)
    {
        var slash = name.LastIndexOf('/');
        var dot = name.LastIndexOf('.');
        var suffix = " (" + n + ")";
        return dot > slash + 1 ? name[..dot] + suffix + name[dot..] : name + suffix;
    }
}
