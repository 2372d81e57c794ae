namespace NzbDav.Archives.Release;

/// <summary>One volume of a set, with the caller's item it came from.</summary>
public sealed record VolumeSetMember<T>(T Item, string Name, int Number);

/// <summary>The ordered volumes of one set and what is missing from it.</summary>
/// <param name="BaseName">Shared base name, spelled as the first volume spells it.</param>
/// <param name="Scheme">Naming scheme.</param>
/// <param name="Volumes">Volumes in order, one per number.</param>
/// <param name="MissingNames">Names of absent volumes between the first expected one and the highest present.
/// A missing tail cannot be seen from names alone; archive headers tell.</param>
/// <param name="Duplicates">Extra items carrying a number already taken (reposts); not in <paramref name="Volumes"/>.</param>
public sealed record VolumeSet<T>(
    string BaseName,
    VolumeScheme Scheme,
    IReadOnlyList<VolumeSetMember<T>> Volumes,
    IReadOnlyList<string> MissingNames,
    IReadOnlyList<VolumeSetMember<T>> Duplicates)
{
    /// <summary>No gap between the first expected volume and the last present one.</summary>
    public bool IsComplete => MissingNames.Count == 0;

    /// <summary>A sentence for logs and the UI naming the set and its missing volumes; null when complete.</summary>
    public string? GapReport => IsComplete
        ? null
        : "Volume set '" + BaseName + "' (" + Scheme + ") is missing " + MissingNames.Count + " volume(s): " +
          string.Join(", ", MissingNames.Take(20)) + (MissingNames.Count > 20 ? ", …" : "");
}
