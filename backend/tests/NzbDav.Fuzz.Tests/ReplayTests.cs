using System.Diagnostics;

namespace NzbDav.Fuzz.Tests;

/// <summary>
/// Every seed and every input a campaign ever found (kept after the fix) runs through its harness:
/// each must be accepted or rejected with the parser's documented exception, within the time and
/// allocation bounds of <see cref="ReplayResult"/>.
/// </summary>
public sealed class ReplayTests
{
    public static TheoryData<string> Targets => [.. FuzzTargets.Names];

    private static string Folder(string kind, string target) => Path.Combine(AppContext.BaseDirectory, "fuzz", kind, target);

    [Theory]
    [MemberData(nameof(Targets))]
    public void Every_kept_input_is_accepted_or_cleanly_rejected(string name)
    {
        var target = FuzzTargets.Create(name)!;
        var seeds = Replayer.FilesUnder(Folder("corpus", name));
        var findings = Replayer.FilesUnder(Folder("findings", name));
        Assert.NotEmpty(seeds);

        var clock = Stopwatch.StartNew();
        var problems = new List<string>();
        var acceptedSeeds = 0;
        foreach (var file in seeds.Concat(findings))
        {
            var result = Replayer.RunOne(target, file);
            if (result.Problem is { } problem)
            {
                problems.Add($"{Path.GetFileName(file)}: {problem}");
            }
            if (result.Accepted && seeds.Contains(file))
            {
                acceptedSeeds++;
            }
        }

        Assert.Empty(problems);
        // The seeds must reach the parser's accepting path, or the campaign starts from nothing.
        Assert.True(acceptedSeeds > 0, $"none of the {seeds.Count} {name} seeds is accepted");
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"replaying {name} took {clock.Elapsed}");
    }

    [Fact]
    public void A_bug_exception_is_a_finding()
    {
        var file = Path.Combine(Path.GetTempPath(), $"nzbdav-fuzz-{Guid.NewGuid():N}");
        File.WriteAllBytes(file, [1, 2, 3]);
        try
        {
            var result = Replayer.RunOne(new Throwing(), file);
            Assert.IsType<IndexOutOfRangeException>(result.Finding);
            Assert.Contains("IndexOutOfRangeException", result.Problem, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void Unbounded_allocation_is_a_finding()
    {
        var file = Path.Combine(Path.GetTempPath(), $"nzbdav-fuzz-{Guid.NewGuid():N}");
        File.WriteAllBytes(file, [1]);
        try
        {
            var result = Replayer.RunOne(new Hoarding(), file);
            Assert.Null(result.Finding);
            Assert.True(result.AllocatedBytes > ReplayResult.MaxAllocatedBytes);
            Assert.Contains("allocated", result.Problem, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(file);
        }
    }

    private sealed class Throwing : FuzzTarget
    {
        public override string Name => "throwing";

        public override bool Run(byte[] input) => input[input.Length] == 0;
    }

    private sealed class Hoarding : FuzzTarget
    {
        public override string Name => "hoarding";

        public override bool Run(byte[] input) => new byte[80 * 1024 * 1024].Length > input.Length;
    }
}
