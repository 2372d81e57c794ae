using System.Diagnostics;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>
/// The soak's WebDAV clients, each looping until the run stops: a player reads whole files at the
/// stream rate; a scrubber seeks to random places and reads 2 MiB there, as a user dragging the
/// timeline; the scanner lists folders (PROPFIND Depth 1) and reads each file's first and last
/// 64 KiB, as Plex's scanner does. Every byte is compared with the true content; a failed request
/// is recorded and the client goes on.
/// </summary>
internal sealed class SoakClients(HttpClient http, DavReader reader, SoakRecorder recorder, SoakOptions options, ILogger logger)
{
    private const int ScrubBytes = 2 * 1024 * 1024;
    private static readonly TimeSpan RetryPause = TimeSpan.FromMilliseconds(200);

    private readonly Lock _gate = new();
    private readonly List<BenchmarkFile> _scanned = [];
    private readonly HashSet<string> _folders = new(StringComparer.Ordinal) { "/", "/content/" };

    /// <summary>Gives the scanner a completed job's folder and file to walk too.</summary>
    public void AddToScan(string folder, BenchmarkFile file)
    {
        lock (_gate)
        {
            _folders.Add(folder);
            _scanned.Add(file);
        }
    }

    public Task[] Start(IReadOnlyList<BenchmarkFile> library, CancellationToken stop)
    {
        foreach (var file in library)
            AddToScan(file.Path[..(file.Path.LastIndexOf('/') + 1)], file);
        var tasks = new List<Task>();
        for (var i = 0; i < options.Players; i++)
            tasks.Add(PlayAsync(i, library, stop));
        for (var i = 0; i < options.Scrubbers; i++)
            tasks.Add(ScrubAsync(i, library, stop));
        for (var i = 0; i < options.Scanners; i++)
            tasks.Add(ScanAsync(i, stop));
        return [.. tasks];
    }

    private async Task PlayAsync(int index, IReadOnlyList<BenchmarkFile> library, CancellationToken stop)
    {
        await Task.Yield();
        var bytesPerSecond = options.StreamMbps * 1_000_000L / 8;
        for (var n = index; !stop.IsCancellationRequested; n++)
        {
            var file = library[n % library.Count];
            await ReadAsync($"player {index + 1}", file, 0, file.Size, ranged: false, bytesPerSecond, stop);
        }
    }

    private async Task ScrubAsync(int index, IReadOnlyList<BenchmarkFile> library, CancellationToken stop)
    {
        await Task.Yield();
        var random = new Random(1000 + index);
        while (!stop.IsCancellationRequested)
        {
            var file = library[random.Next(library.Count)];
            var length = Math.Min(ScrubBytes, file.Size);
            var offset = random.NextInt64(0, file.Size - length + 1);
            await ReadAsync($"scrubber {index + 1}", file, offset, length, ranged: true, 0, stop);
            await PauseAsync(TimeSpan.FromMilliseconds(random.Next(200, 1000)), stop);
        }
    }

    private async Task ScanAsync(int index, CancellationToken stop)
    {
        await Task.Yield();
        var client = $"scanner {index + 1}";
        while (!stop.IsCancellationRequested)
        {
            string[] folders;
            BenchmarkFile[] files;
            lock (_gate)
            {
                folders = [.. _folders];
                files = [.. _scanned];
            }

            foreach (var folder in folders)
                await PropfindAsync(client, folder, "1", stop);
            foreach (var file in files)
            {
                await PropfindAsync(client, file.Path, "0", stop);
                var edge = Math.Min(LibraryScan.HeaderBytes, file.Size);
                await ReadAsync(client, file, 0, edge, ranged: true, 0, stop);
                await ReadAsync(client, file, file.Size - edge, edge, ranged: true, 0, stop);
            }

            await PauseAsync(TimeSpan.FromSeconds(1), stop);
        }
    }

    private async Task ReadAsync(string client, BenchmarkFile file, long offset, long length, bool ranged, long bytesPerSecond, CancellationToken stop)
    {
        if (stop.IsCancellationRequested)
            return;
        var started = Stopwatch.GetTimestamp();
        var playback = new Playback(bytesPerSecond, [], static () => { }, stop)
        {
            OnBlock = (start, wait, at) => recorder.Wait(client, file.Path, at, start, wait),
        };
        try
        {
            recorder.Read();
            await reader.ReadAsync(file.Path, file.Expected, offset, length, ranged, playback, CancellationToken.None);
        }
        catch (Exception error) when (error is HttpRequestException or IOException or InvalidDataException)
        {
            recorder.Failed(client, $"GET {file.Path} bytes={offset}-{offset + length - 1}", error, started);
            logger.LogWarning("{Client}: GET {Path} at {Offset} failed: {Error}", client, file.Path, offset, error.Message);
            await PauseAsync(RetryPause, stop);
        }
    }

    private async Task PropfindAsync(string client, string path, string depth, CancellationToken stop)
    {
        if (stop.IsCancellationRequested)
            return;
        var started = Stopwatch.GetTimestamp();
        try
        {
            await DavRequests.PropfindAsync(http, path, depth, stop);
            recorder.Propfind(started);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The run is over.
        }
        catch (Exception error) when (error is HttpRequestException or IOException or InvalidDataException)
        {
            recorder.Failed(client, $"PROPFIND {path} (Depth {depth})", error, started);
            logger.LogWarning("{Client}: PROPFIND {Path} failed: {Error}", client, path, error.Message);
            await PauseAsync(RetryPause, stop);
        }
    }

    private static async Task PauseAsync(TimeSpan delay, CancellationToken stop)
    {
        try
        {
            await Task.Delay(delay, stop);
        }
        catch (OperationCanceledException)
        {
            // The run is over; the loop sees it.
        }
    }
}
