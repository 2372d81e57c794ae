using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;

namespace NzbDav.Tools.Testing;

/// <summary>Process memory at the end of a run.</summary>
/// <param name="PeakRssBytes">Highest resident set size of the process so far (Linux VmHWM, else PeakWorkingSet64).</param>
/// <param name="ManagedHeapBytes">Managed heap after a full collection.</param>
/// <param name="AllocatedBytes">Bytes allocated on the managed heap during the run.</param>
public sealed record MemoryUsage(long PeakRssBytes, long ManagedHeapBytes, long AllocatedBytes)
{
    /// <summary>Collects garbage so the heap figure is what is really retained, then samples.</summary>
    [SuppressMessage("ApiDesign", "RS0030:Do not use banned APIs", Justification = "Measures the retained heap at the end of a benchmark run; the collection is the point.")]
    public static MemoryUsage Measure(long allocatedAtStart)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedAtStart;
        return new MemoryUsage(PeakRss(), GC.GetTotalMemory(forceFullCollection: false), allocated);
    }

    private static long PeakRss()
    {
        // VmHWM is the kernel's own high-water mark: it catches peaks between our samples.
        const string status = "/proc/self/status";
        if (File.Exists(status))
        {
            foreach (var line in File.ReadLines(status))
            {
                if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
                {
                    var kib = line["VmHWM:".Length..].Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries)[0];
                    return long.Parse(kib, CultureInfo.InvariantCulture) * 1024;
                }
            }
        }

        using var process = Process.GetCurrentProcess();
        return process.PeakWorkingSet64;
    }
}
