namespace NzbDav.Server.Hosting;

/// <summary>
/// Raises the thread pool's minimum worker count before anything runs. The default minimum is the
/// core count (2 on a small NAS), and above it the pool adds threads only about twice a second
/// while work waits. Serving many streams at once keeps every worker busy with short CPU-bound
/// items (decoding, copying to Kestrel), so a PROPFIND or a new stream's first read queued behind
/// them waited seconds: measured with <c>--test-webdav --streams=10 --stream-mbps=0</c> on 2 vCPUs,
/// the worst read went from 1.2–3.6 s to 85 ms, header reads' p99 from 0.7–1.3 s to 175 ms, and the
/// aggregate from 280–430 to 957 MB/s with a floor of 16 (docs/benchmarks.md, issue 15).
/// </summary>
public static class ThreadPoolFloor
{
    /// <summary>The least number of worker threads the pool keeps ready.</summary>
    public const int MinimumWorkers = 16;

    /// <summary>Raises the minimum to <see cref="MinimumWorkers"/> (never lowers it).</summary>
    public static void Apply()
    {
        ThreadPool.GetMinThreads(out var workers, out var io);
        var floor = Floor(workers);
        if (floor != workers && !ThreadPool.SetMinThreads(floor, io))
            throw new InvalidOperationException($"The thread pool refused a minimum of {floor} worker threads.");
    }

    /// <summary>The minimum to set when the pool's is <paramref name="workers"/>.</summary>
    public static int Floor(int workers) => Math.Max(workers, MinimumWorkers);
}
