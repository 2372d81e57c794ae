using System.Diagnostics;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// One pass of what Plex's scanner and ffprobe do to each new file: PROPFIND Depth 0, HEAD, the
/// first and the last 64 KiB (container header and index), then <see cref="RandomReads"/> reads of
/// 1 MiB at positions seeded by the file's index (the same in every pass, as a refresh re-reads the
/// same spots). Each file's requests go one after another; <c>concurrency</c> files are in flight.
/// </summary>
internal sealed class ProbePattern(HttpClient http, DavReader reader, IReadOnlyList<BenchmarkFile> files, int concurrency)
{
    /// <summary>Bytes of each of the head and tail reads.</summary>
    public const int EdgeBytes = 64 * 1024;

    /// <summary>Bytes of each read at a seeded position.</summary>
    public const int RandomReadBytes = 1024 * 1024;

    public const int RandomReads = 3;

    /// <summary>Body bytes one pass reads of a file of <paramref name="size"/> bytes.</summary>
    public static long BytesPerFile(long size) => (2 * Math.Min(EdgeBytes, size)) + (RandomReads * Math.Min(RandomReadBytes, size));

    /// <summary>Where the 1 MiB reads of file <paramref name="index"/> start: the same for every pass, and each range inside the file.</summary>
    public static long[] RandomOffsets(int index, long size)
    {
        var random = new Random(index);
        var last = size - Math.Min(RandomReadBytes, size);
        return [.. Enumerable.Range(0, RandomReads).Select(_ => random.NextInt64(0, last + 1))];
    }

    public async Task<ProbeScanResult> RunAsync(CancellationToken cancellationToken)
    {
        var next = -1;
        var started = Stopwatch.GetTimestamp();

        async Task<Times> WorkAsync()
        {
            // Off the caller's context, so the workers run side by side.
            await Task.Yield();
            var times = new Times();
            int i;
            while ((i = Interlocked.Increment(ref next)) < files.Count)
                await ProbeAsync(files[i], i, times, cancellationToken);
            return times;
        }

        var workers = await Task.WhenAll(Enumerable.Range(0, concurrency).Select(_ => WorkAsync()));
        var elapsed = Stopwatch.GetElapsedTime(started);
        LatencySummary Summary(Func<Times, List<double>> pick) => LatencySummary.From([.. workers.SelectMany(pick)]);
        return new ProbeScanResult
        {
            Elapsed = elapsed,
            Propfinds = Summary(t => t.Propfinds),
            HeadRequests = Summary(t => t.Heads),
            HeaderReads = Summary(t => t.HeaderReads),
            TailReads = Summary(t => t.TailReads),
            RandomReads = Summary(t => t.RandomReads),
            ServedBytes = workers.Sum(t => t.ServedBytes),
        };
    }

    private async Task ProbeAsync(BenchmarkFile file, int index, Times times, CancellationToken cancellationToken)
    {
        times.Propfinds.Add(await DavRequests.PropfindAsync(http, file.Path, "0", cancellationToken));
        times.Heads.Add(await DavRequests.HeadAsync(http, file.Path, file.Size, cancellationToken));
        var edge = Math.Min(EdgeBytes, file.Size);
        await ReadAsync(file, 0, edge, times, times.HeaderReads, cancellationToken);
        await ReadAsync(file, file.Size - edge, edge, times, times.TailReads, cancellationToken);
        foreach (var offset in RandomOffsets(index, file.Size))
            await ReadAsync(file, offset, Math.Min(RandomReadBytes, file.Size), times, times.RandomReads, cancellationToken);
    }

    private async Task ReadAsync(BenchmarkFile file, long offset, long length, Times times, List<double> into, CancellationToken cancellationToken)
    {
        var read = await reader.ReadAsync(file.Path, file.Expected, offset, length, ranged: true, null, cancellationToken);
        into.Add(read.Elapsed.TotalMilliseconds);
        times.ServedBytes += read.Bytes;
    }

    // One worker's samples: each worker has its own, so none is shared between threads.
    private sealed class Times
    {
        public List<double> Propfinds { get; } = [];

        public List<double> Heads { get; } = [];

        public List<double> HeaderReads { get; } = [];

        public List<double> TailReads { get; } = [];

        public List<double> RandomReads { get; } = [];

        public long ServedBytes { get; set; }
    }
}
