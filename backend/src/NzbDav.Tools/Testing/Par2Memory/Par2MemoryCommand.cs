using System.Diagnostics;
using System.Globalization;
using NzbDav.Archives.Par2;

namespace NzbDav.Tools.Testing.Par2Memory;

/// <summary>
/// <c>NzbDav --test-par2-memory [--set-gib=50] [--slices=2000] [--lost-percent=1] [--budget-mib=160] [--scratch=DIR]</c>:
/// the PAR2 rebuild of a simulated recovery set of that size (synthetic slices, no network), with
/// <c>--lost-percent</c> of its slices lost in one run and as many recovery slices plus one spare,
/// under the memory budget a server's <c>Health:Par2MemoryBytes</c> sets. Reports the process's
/// peak resident memory above what it held before the rebuild, the scratch file's size, and the
/// time. Returns 0 when measured, 2 for bad arguments.
/// </summary>
public static class Par2MemoryCommand
{
    private const string Name = "--test-par2-memory";

    public static async Task<int> RunConsoleAsync(IReadOnlyList<string> args)
    {
        var options = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["--set-gib"] = "50",
            ["--slices"] = "2000",
            ["--lost-percent"] = "1",
            ["--budget-mib"] = "160",
            ["--scratch"] = Path.Combine(Path.GetTempPath(), "nzbdav-par2-memory"),
        };
        foreach (var arg in args)
        {
            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            var key = equals < 0 ? arg : arg[..equals];
            if (key is "--help" or "-h" || !options.ContainsKey(key) || equals < 0)
            {
                await Console.Error.WriteLineAsync($"{Name}: usage: {Name} [--set-gib=50] [--slices=2000] [--lost-percent=1] [--budget-mib=160] [--scratch=DIR]"
                    + (key is "--help" or "-h" ? "" : $" (not understood: {arg})"));
                return key is "--help" or "-h" ? 0 : 2;
            }

            options[key] = arg[(equals + 1)..];
        }

        if (!double.TryParse(options["--set-gib"], NumberStyles.Float, CultureInfo.InvariantCulture, out var setGib) || setGib <= 0
            || !int.TryParse(options["--slices"], NumberStyles.None, CultureInfo.InvariantCulture, out var sliceCount) || sliceCount is < 2 or > 32_768
            || !double.TryParse(options["--lost-percent"], NumberStyles.Float, CultureInfo.InvariantCulture, out var lostPercent) || lostPercent is <= 0 or > 50
            || !long.TryParse(options["--budget-mib"], NumberStyles.None, CultureInfo.InvariantCulture, out var budgetMib) || budgetMib < 1)
        {
            await Console.Error.WriteLineAsync($"{Name}: --set-gib > 0, --slices 2–32768, --lost-percent in (0, 50] and --budget-mib ≥ 1 are needed.");
            return 2;
        }

        // PAR2 slices are a multiple of 4 bytes; the set is cut in sliceCount of them.
        var sliceSize = checked((int)(Math.Ceiling(setGib * 1024 * 1024 * 1024 / sliceCount / 4) * 4));
        var lost = Math.Max(1, (int)Math.Round(sliceCount * lostPercent / 100));
        var budget = budgetMib * 1024 * 1024;
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            cancel.Cancel();
        };

        var before = PeakRss();
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        // Stands for the buffer a repair reads each slice into.
        var source = new byte[sliceSize];
        new Random(50).NextBytes(source);
        Console.WriteLine($"Simulated set: {sliceCount:N0} slices of {sliceSize:N0} bytes ({(long)sliceCount * sliceSize / 1e9:F1} GB), {lost} lost in one run ({lost * (long)sliceSize / 1e6:F0} MB), {lost + 1} recovery slices read; budget {budgetMib} MiB");
        var timer = Stopwatch.StartNew();
        long scratchBytes;
        bool spilled;
        var missing = Enumerable.Range(sliceCount / 2, lost).ToArray();
        using (var rebuilder = new Par2Rebuilder(sliceCount, sliceSize, missing, lost + 1, budget, options["--scratch"]))
        {
            for (var r = 0; r < lost + 1; r++)
                rebuilder.AddRecovery((uint)r, source);
            var lostSet = missing.ToHashSet();
            for (var i = 0; i < sliceCount; i++)
            {
                cancel.Token.ThrowIfCancellationRequested();
                if (!lostSet.Contains(i))
                    rebuilder.AddInput(i, source);
            }

            scratchBytes = rebuilder.ScratchBytes;
            spilled = rebuilder.Spilled;
            var stored = timer.Elapsed;
            Console.WriteLine($"Slices added in {stored.TotalSeconds:F1} s{(spilled ? $" ({scratchBytes / 1e9:F1} GB stored in the scratch file)" : " (in memory)")}");
            if (!rebuilder.TryRebuild(out var slices, out var failure))
            {
                await Console.Error.WriteLineAsync($"{Name}: the rebuild failed: {failure}");
                return 1;
            }

            using (slices)
            {
                // Each rebuilt slice read back once, as the checks and the patches do.
                for (var m = 0; m < slices!.Count; m++)
                    slices.Read(m, 0, source);
            }
        }

        var elapsed = timer.Elapsed;
        var peak = PeakRss();
        Console.WriteLine($"Rebuilt {lost} slices in {elapsed.TotalSeconds:F1} s ({(spilled ? "in stripes over the scratch file" : "in memory")})");
        Console.WriteLine($"Peak resident memory: {peak / 1e6:F1} MB; {(peak - before) / 1e6:F1} MB above the {before / 1e6:F1} MB before the rebuild (one slice buffer of {sliceSize / 1e6:F1} MB among them)");
        Console.WriteLine($"Managed bytes allocated during the rebuild: {(GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore) / 1e6:F1} MB");
        return 0;
    }

    private static long PeakRss()
    {
        const string status = "/proc/self/status";
        foreach (var line in File.ReadLines(status))
        {
            if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                return long.Parse(line["VmHWM:".Length..].Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], CultureInfo.InvariantCulture) * 1024;
        }

        return Environment.WorkingSet;
    }
}
