using NzbDav.Fuzz.Targets;

namespace NzbDav.Fuzz;

/// <summary>Every harness, by name.</summary>
public static class FuzzTargets
{
    public static IReadOnlyList<FuzzTarget> All { get; } =
    [
        new NzbTarget(),
        new YencTarget(),
        new ArchiveTarget("rar4", ArchiveTarget.Format.Rar4),
        new ArchiveTarget("rar5", ArchiveTarget.Format.Rar5),
        new ArchiveTarget("7z", ArchiveTarget.Format.SevenZip),
        new Par2Target(),
        new RangeTarget(),
        new PropfindTarget(),
        new SabUploadTarget(),
        new NntpTarget(),
    ];

    public static FuzzTarget? Find(string name) =>
        All.FirstOrDefault(t => string.Equals(t.Name, name, StringComparison.OrdinalIgnoreCase));
}
