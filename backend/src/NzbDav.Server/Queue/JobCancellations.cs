using System.Collections.Concurrent;

namespace NzbDav.Server.Queue;

/// <summary>Cancellation of jobs being ingested, so delete and pause take effect mid-ingestion.</summary>
public sealed class JobCancellations
{
    private readonly ConcurrentDictionary<Guid, CancellationTokenSource> _running = new();

    /// <summary>Registers a running job; dispose the result when the job ends.</summary>
    public CancellationTokenSource Register(Guid jobId, CancellationToken stopping)
    {
        var source = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        _running[jobId] = source;
        return source;
    }

    public void Unregister(Guid jobId) => _running.TryRemove(jobId, out _);

    /// <summary>Cancels the job's ingestion if it is running.</summary>
    public void Cancel(Guid jobId)
    {
        if (_running.TryGetValue(jobId, out var source))
        {
            try
            {
                source.Cancel();
            }
            catch (ObjectDisposedException)
            {
                // The job finished between the lookup and the cancel.
            }
        }
    }
}
