using NzbDav.Fuzz.Targets;

namespace NzbDav.Fuzz;

/// <summary>Every harness, by name, as factories: under afl-fuzz nothing instrumented may run before Fuzzer.Run.</summary>
public static class FuzzTargets
{
    private static readonly (string Name, Func<FuzzTarget> Create)[] Factories =
    [
        ("nzb", () => new NzbTarget()),
        ("yenc", () => new YencTarget()),
        ("rar4", () => new ArchiveTarget("rar4", ArchiveTarget.Format.Rar4)),
        ("rar5", () => new ArchiveTarget("rar5", ArchiveTarget.Format.Rar5)),
        ("7z", () => new ArchiveTarget("7z", ArchiveTarget.Format.SevenZip)),
        ("par2", () => new Par2Target()),
        ("par2set", () => new Par2SetTarget()),
        ("range", () => new RangeTarget()),
        ("propfind", () => new PropfindTarget()),
        ("sab", () => new SabUploadTarget()),
        ("nntp", () => new NntpTarget()),
    ];

    public static IReadOnlyList<string> Names { get; } = [.. Factories.Select(f => f.Name)];

    /// <summary>A new instance of the named target, or null.</summary>
    public static FuzzTarget? Create(string name) =>
        Factories.FirstOrDefault(f => string.Equals(f.Name, name, StringComparison.OrdinalIgnoreCase)).Create?.Invoke();
}
