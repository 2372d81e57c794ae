using System.Collections.Concurrent;

namespace NzbDav.Server.Queue;

/// <summary>
/// The running ingestions' progress, and how long recent ones took, for the SABnzbd queue's
/// <c>percentage</c>, <c>mbleft</c>, <c>kbpersec</c> and <c>timeleft</c> (queued jobs are expected to
/// take about as long as recent ones did).
/// </summary>
public sealed class IngestionProgress
{
    // Weight of the newest job in the running average of job durations.
    private const double NewestWeight = 0.3;

    private readonly ConcurrentDictionary<Guid, JobProgress> _running = new();
    private readonly Lock _gate = new();
    private TimeSpan? _typicalDuration;

    /// <summary>A recent job's duration (exponential average); null before the first job finished.</summary>
    public TimeSpan? TypicalDuration
    {
        get
        {
            lock (_gate)
                return _typicalDuration;
        }
    }

    public JobProgress? Find(Guid jobId) => _running.GetValueOrDefault(jobId);

    public IReadOnlyCollection<JobProgress> Running => [.. _running.Values];

    public JobProgress Start(Guid jobId) => _running[jobId] = new JobProgress { JobId = jobId };

    /// <summary>Forgets a job; a successful one's duration feeds <see cref="TypicalDuration"/>.</summary>
    public void Finish(JobProgress progress, bool completed)
    {
        _running.TryRemove(new KeyValuePair<Guid, JobProgress>(progress.JobId, progress));
        if (!completed)
            return;
        var elapsed = progress.Elapsed;
        lock (_gate)
            _typicalDuration = _typicalDuration is { } typical ? (typical * (1 - NewestWeight)) + (elapsed * NewestWeight) : elapsed;
    }
}
