using System.Globalization;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>
/// The NZBs of the run, submitted through <c>addfile</c> at their times, watched in the history
/// (a completed job's file is handed to the scanner), and checked at the end: every job in the
/// history exactly once, Completed, nothing left in the queue.
/// </summary>
internal sealed class SoakIngestion(BenchmarkHost host, SoakClients clients, ILogger logger)
{
    private static readonly TimeSpan WatchInterval = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan FinishDeadline = TimeSpan.FromMinutes(5);

    private readonly Lock _gate = new();
    private readonly Dictionary<string, SoakJob> _submitted = new(StringComparer.Ordinal);
    private readonly HashSet<string> _seenCompleted = new(StringComparer.Ordinal);
    private int _refused;

    /// <summary>Submits each job at its offset from now (spread over the first 90 % of the run), watching the history meanwhile.</summary>
    public async Task RunAsync(IReadOnlyList<SoakJob> jobs, TimeSpan duration, CancellationToken stop)
    {
        var started = DateTime.UtcNow;
        using var stopWatching = CancellationTokenSource.CreateLinkedTokenSource(stop);
        var watching = WatchAsync(stopWatching.Token);
        for (var i = 0; i < jobs.Count; i++)
        {
            var due = started + (duration * 0.9 * i / jobs.Count);
            var wait = due - DateTime.UtcNow;
            if (wait > TimeSpan.Zero && !await DelayAsync(wait, stop))
                break;
            var job = jobs[i];
            try
            {
                var id = await host.AddFileAsync(job.Nzb, job.Name + ".nzb", stop);
                lock (_gate)
                    _submitted[id] = job;
                logger.LogInformation("Submitted {Job} as {NzoId}", job.Name, id);
            }
            catch (Exception error) when (error is HttpRequestException or InvalidOperationException)
            {
                Interlocked.Increment(ref _refused);
                logger.LogWarning("addfile of {Job} failed: {Error}", job.Name, error.Message);
            }
        }

        try
        {
            await watching;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The load is over; FinishAsync takes over.
        }
    }

    /// <summary>Waits (up to 5 minutes) until every submitted job has left the queue, then checks the history.</summary>
    public async Task<SoakIngestionResult> FinishAsync(int jobCount, CancellationToken cancellationToken)
    {
        Dictionary<string, SoakJob> submitted;
        lock (_gate)
            submitted = new Dictionary<string, SoakJob>(_submitted, StringComparer.Ordinal);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(FinishDeadline);
        var timedOut = false;
        try
        {
            while (true)
            {
                using var queue = await host.GetApiAsync("mode=queue&limit=0", deadline.Token);
                var waiting = queue.RootElement.GetProperty("queue").GetProperty("slots").EnumerateArray()
                    .Count(s => submitted.ContainsKey(s.GetProperty("nzo_id").GetString()!));
                if (waiting == 0)
                    break;
                await Task.Delay(WatchInterval, deadline.Token);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            timedOut = true;
        }

        using var history = await host.GetApiAsync("mode=history&limit=0", cancellationToken);
        var slots = history.RootElement.GetProperty("history").GetProperty("slots").EnumerateArray()
            .Where(s => submitted.ContainsKey(s.GetProperty("nzo_id").GetString()!))
            .Select(s => (Id: s.GetProperty("nzo_id").GetString()!, Name: s.GetProperty("name").GetString()!, Status: s.GetProperty("status").GetString()!,
                Message: s.TryGetProperty("fail_message", out var m) ? m.GetString() : null))
            .ToList();
        var byId = slots.GroupBy(s => s.Id, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        var byName = slots.GroupBy(s => s.Name, StringComparer.Ordinal).Count(g => g.Count() > 1);
        var problems = slots.Where(s => s.Status != "Completed")
            .Select(s => string.Create(CultureInfo.InvariantCulture, $"{s.Name}: {s.Status} {s.Message}"))
            .ToList();
        return new SoakIngestionResult
        {
            Jobs = jobCount,
            Submitted = submitted.Count,
            Refused = Volatile.Read(ref _refused),
            Completed = slots.Count(s => s.Status == "Completed"),
            Failed = slots.Count(s => s.Status != "Completed"),
            Duplicates = byId.Values.Sum(c => c - 1) + byName,
            Missing = submitted.Keys.Count(id => !byId.ContainsKey(id)),
            TimedOut = timedOut,
            Problems = problems,
        };
    }

    private async Task WatchAsync(CancellationToken stop)
    {
        while (await DelayAsync(WatchInterval, stop))
        {
            try
            {
                using var history = await host.GetApiAsync("mode=history&limit=0", stop);
                foreach (var slot in history.RootElement.GetProperty("history").GetProperty("slots").EnumerateArray())
                {
                    var id = slot.GetProperty("nzo_id").GetString()!;
                    SoakJob? job;
                    lock (_gate)
                    {
                        if (slot.GetProperty("status").GetString() != "Completed" || !_submitted.TryGetValue(id, out job) || !_seenCompleted.Add(id))
                            continue;
                    }

                    var folder = BenchmarkHost.ContentFolder(slot);
                    clients.AddToScan(folder, new BenchmarkFile(folder + job.FileName, job.Size, job.Expected));
                    logger.LogInformation("{Job} completed; the scanner reads it too", job.Name);
                }
            }
            catch (Exception error) when (error is HttpRequestException or InvalidOperationException or IOException)
            {
                logger.LogWarning("Reading the history failed: {Error}", error.Message);
            }
        }
    }

    private static async Task<bool> DelayAsync(TimeSpan delay, CancellationToken stop)
    {
        try
        {
            await Task.Delay(delay, stop);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}

/// <summary>One NZB of the run: a job of one generated file.</summary>
internal sealed record SoakJob(string Name, string FileName, long Size, byte[] Nzb, ExpectedBytesReader Expected);

/// <summary>What became of the run's NZBs.</summary>
public sealed record SoakIngestionResult
{
    public required int Jobs { get; init; }

    public required int Submitted { get; init; }

    /// <summary>addfile calls that failed (the NZB was never accepted).</summary>
    public required int Refused { get; init; }

    public required int Completed { get; init; }

    public required int Failed { get; init; }

    /// <summary>History entries beyond the first for one job (by id or by name).</summary>
    public required int Duplicates { get; init; }

    /// <summary>Accepted jobs not in the history at the end.</summary>
    public required int Missing { get; init; }

    /// <summary>Some job was still in the queue 5 minutes after the load ended.</summary>
    public required bool TimedOut { get; init; }

    public required IReadOnlyList<string> Problems { get; init; }

    public bool Passed => Refused == 0 && Submitted == Jobs && Completed == Jobs && Failed == 0 && Duplicates == 0 && Missing == 0 && !TimedOut;
}
