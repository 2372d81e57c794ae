using System.Diagnostics;

namespace NzbDav.Fuzz;

/// <summary>What one input did to a target when run directly (not instrumented).</summary>
public sealed record ReplayResult(string File, bool Accepted, Exception? Finding, long AllocatedBytes, TimeSpan Elapsed)
{
    /// <summary>More than this allocated for one input (all inputs are well under 1 MiB) is unbounded allocation.</summary>
    public const long MaxAllocatedBytes = 64L * 1024 * 1024;

    /// <summary>Longer than this for one input is a hang (AFL++ uses its own -t for the campaigns).</summary>
    public static readonly TimeSpan MaxElapsed = TimeSpan.FromSeconds(5);

    public string? Problem =>
        Finding is not null ? $"{Finding.GetType().Name}: {Finding.Message}\n{Finding.StackTrace}"
        : AllocatedBytes > MaxAllocatedBytes ? $"allocated {AllocatedBytes:N0} bytes (limit {MaxAllocatedBytes:N0})"
        : Elapsed > MaxElapsed ? $"took {Elapsed.TotalMilliseconds:F0} ms (limit {MaxElapsed.TotalMilliseconds:F0} ms)"
        : null;
}

/// <summary>Runs kept inputs through a target's harness and reports findings, allocation and time per input.</summary>
public static class Replayer
{
    public static ReplayResult RunOne(FuzzTarget target, string file)
    {
        ArgumentNullException.ThrowIfNull(target);
        var input = File.ReadAllBytes(file);
        // Process-wide: the async parsers continue on pool threads. Precise, so small inputs are not rounded away.
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var clock = Stopwatch.StartNew();
        Exception? finding = null;
        var accepted = false;
        try
        {
            accepted = target.Run(input);
        }
        catch (Exception e)
        {
            finding = e;
        }
        clock.Stop();
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
        return new ReplayResult(file, accepted, finding, allocated, clock.Elapsed);
    }

    /// <summary>Every regular file under <paramref name="directory"/>, recursively, in a stable order.</summary>
    public static IReadOnlyList<string> FilesUnder(string directory) =>
        Directory.Exists(directory)
            ? [.. Directory.EnumerateFiles(directory, "*", SearchOption.AllDirectories).Where(f => !Path.GetFileName(f).StartsWith('.') && !f.EndsWith(".md", StringComparison.Ordinal)).Order(StringComparer.Ordinal)]
            : [];
}
