using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>
/// Fetches one job's articles as queue operations, pipelined: each worker holds a lease (a limiter
/// permit and one pooled session) and keeps up to the session's PipelineDepth BODY commands in
/// flight, so N connections answer N × depth articles per round trip. Workers are added while
/// requests wait and leave, returning their lease, as soon as none are left, so streaming gets its
/// connections back between an ingestion's bursts. A 430 or a corrupt copy asks the other providers
/// under the same lease; a broken session puts its requests back for another worker, a bounded
/// number of times.
/// </summary>
internal sealed partial class ArticleFetcher : IAsyncDisposable
{
    private const int MaxFailedAttempts = 3;

    // Providers default to 4; the real depth is learnt from the first lease.
    private const int AssumedDepth = 4;

    private readonly UsenetClient _client;
    private readonly int _maxInFlight;
    private readonly int _maxWorkers;
    private readonly Lock _gate = new();
    private readonly Queue<FetchRequest> _pending = new();
    private readonly List<FetchWorker> _workers = [];
    private readonly List<Task> _workerTasks = [];
    private readonly CancellationTokenSource _stopping;
    private readonly CancellationTokenRegistration _onStopping;
    private readonly JobProgress? _progress;
    private int _depth = AssumedDepth;
    private int _inFlight;
    private bool _disposed;

    /// <param name="client">Where leases come from.</param>
    /// <param name="maxInFlight">Most requests out at once over all workers.</param>
    /// <param name="maxConnections">Most leases held at once (the limiter's queue maximum).</param>
    /// <param name="cancellationToken">The job's token: cancels every request.</param>
    /// <param name="progress">Counts requests and answered bytes for the SABnzbd queue.</param>
    public ArticleFetcher(UsenetClient client, int maxInFlight, int maxConnections, CancellationToken cancellationToken, JobProgress? progress = null)
    {
        _client = client;
        _progress = progress;
        _maxInFlight = Math.Max(1, maxInFlight);
        _maxWorkers = Math.Max(1, maxConnections);
        _stopping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _onStopping = _stopping.Token.UnsafeRegister(static state => ((ArticleFetcher)state!).CancelPending(), this);
    }

    /// <summary>Queues a BODY; <paramref name="newTarget"/> gives a fresh target to every attempt.</summary>
    public Task<YencHeader> FetchAsync(string messageId, Func<IYencBodyTarget> newTarget)
    {
        var request = new FetchRequest(messageId, newTarget);
        if (_progress is { } progress)
        {
            progress.Planning();
            request.Task.ContinueWith(static (task, state) => ((JobProgress)state!).Answered(task.IsCompletedSuccessfully ? task.Result.PartSize : 0),
                progress, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }

        List<FetchWorker>? started;
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_stopping.IsCancellationRequested)
            {
                request.Cancel(_stopping.Token);
                return request.Task;
            }

            _pending.Enqueue(request);
            started = DispatchLocked();
        }

        Start(started);
        return request.Task;
    }

    public async ValueTask DisposeAsync()
    {
        Task[] workers;
        lock (_gate)
        {
            if (_disposed)
                return;
            _disposed = true;
            workers = [.. _workerTasks];
        }

        // Cancelling runs CancelPending, so no request is left waiting.
        await _stopping.CancelAsync();
        await Task.WhenAll(workers);
        await _onStopping.DisposeAsync();
        _stopping.Dispose();
    }

    /// <summary>Wakes workers with room and adds workers while requests outnumber the free slots.</summary>
    private List<FetchWorker>? DispatchLocked()
    {
        var free = 0;
        foreach (var worker in _workers)
        {
            if (worker.Leased && worker.FreeSlots > 0 && _pending.Count > 0)
                worker.Wake();
            free += worker.FreeSlots;
        }

        List<FetchWorker>? added = null;
        var limit = Math.Min(_maxWorkers, (_maxInFlight + _depth - 1) / _depth);
        while (_pending.Count > free && _workers.Count < limit && !_stopping.IsCancellationRequested)
        {
            var worker = new FetchWorker(_depth);
            _workers.Add(worker);
            (added ??= []).Add(worker);
            free += worker.FreeSlots;
        }

        return added;
    }

    private void Start(List<FetchWorker>? workers)
    {
        if (workers is null)
            return;
        foreach (var worker in workers)
        {
            var task = RunWorkerAsync(worker);
            lock (_gate)
            {
                _workerTasks.RemoveAll(static t => t.IsCompleted);
                _workerTasks.Add(task);
            }
        }
    }

    private void CancelPending()
    {
        FetchRequest[] orphaned;
        lock (_gate)
        {
            orphaned = [.. _pending];
            _pending.Clear();
        }

        foreach (var request in orphaned)
            request.Cancel(_stopping.Token);
    }
}
