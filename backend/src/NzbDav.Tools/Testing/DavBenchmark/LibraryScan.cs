using System.Diagnostics;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// A media server's library scan: PROPFIND Depth 1 on the folders and Depth 0 on the files, in
/// turn, with header reads (the first 64 KiB of a file, as ffprobe and Plex's scanner start) spread
/// evenly among them; <see cref="WebDavBenchmarkOptions.ScanConcurrency"/> requests in flight.
/// </summary>
internal sealed class LibraryScan(
    HttpClient http, DavReader reader, IReadOnlyList<string> folders, IReadOnlyList<BenchmarkFile> files, WebDavBenchmarkOptions options)
{
    /// <summary>Bytes a header read asks for.</summary>
    public const int HeaderBytes = 64 * 1024;

    public async Task<ScanResult> RunAsync(CancellationToken cancellationToken)
    {
        var targets = folders.Select(f => (Path: f, Depth: "1")).Concat(files.Select(f => (f.Path, Depth: "0"))).ToArray();
        var readable = files.Where(f => f.Size > 0).ToArray();
        var propfinds = options.Propfinds;
        var headers = readable.Length > 0 ? options.HeaderReads : 0;
        var total = propfinds + headers;
        var next = -1;
        var started = Stopwatch.GetTimestamp();

        async Task<(List<double> Propfinds, List<double> Headers, long HeaderBytes)> WorkAsync()
        {
            await Task.Yield();
            var propfindTimes = new List<double>();
            var headerTimes = new List<double>();
            long headerBytes = 0;
            int i;
            while ((i = Interlocked.Increment(ref next)) < total)
            {
                // Item i is a header read when the even spread of `headers` over `total` steps up at i.
                var headersUpTo = (long)(i + 1) * headers / total;
                var headersBefore = (long)i * headers / total;
                if (headersUpTo > headersBefore)
                {
                    var file = readable[(int)(headersBefore % readable.Length)];
                    var read = await reader.ReadAsync(file.Path, file.Expected, 0, Math.Min(HeaderBytes, file.Size), ranged: true, null, cancellationToken);
                    headerTimes.Add(read.Elapsed.TotalMilliseconds);
                    headerBytes += read.Bytes;
                }
                else
                {
                    var target = targets[(int)((i - headersBefore) % targets.Length)];
                    propfindTimes.Add(await DavRequests.PropfindAsync(http, target.Path, target.Depth, cancellationToken));
                }
            }

            return (propfindTimes, headerTimes, headerBytes);
        }

        var workers = await Task.WhenAll(Enumerable.Range(0, options.ScanConcurrency).Select(_ => WorkAsync()));
        var elapsed = Stopwatch.GetElapsedTime(started);
        return new ScanResult(
            LatencySummary.From([.. workers.SelectMany(w => w.Propfinds)]),
            LatencySummary.From([.. workers.SelectMany(w => w.Headers)]),
            workers.Sum(w => w.HeaderBytes),
            elapsed);
    }
}
