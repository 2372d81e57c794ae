using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Queue;

/// <summary>
/// One job's article fetches, as tasks, on the fetch engine: a <see cref="FetchGroup"/> drawing
/// queue-pool leases, pipelining up to the job's article concurrency in submission order, and
/// giving each lease back as soon as nothing is left for it, so streaming gets its connections back
/// between an ingestion's bursts. Failover (430s and corrupt copies to other providers, broken
/// sessions retried elsewhere) is the engine's.
/// </summary>
internal sealed class ArticleFetcher : IAsyncDisposable
{
    private readonly FetchGroup _group;
    private readonly CancellationTokenRegistration _onCancelled;
    private readonly JobProgress? _progress;
    private long _submitted;

    /// <param name="client">Where leases come from.</param>
    /// <param name="maxInFlight">Most requests out at once over all connections.</param>
    /// <param name="maxConnections">Most leases held at once (the limiter's queue maximum).</param>
    /// <param name="cancellationToken">The job's token: cancels every request, cutting answers in progress.</param>
    /// <param name="progress">Counts requests and answered bytes for the SABnzbd queue.</param>
    public ArticleFetcher(UsenetClient client, int maxInFlight, int maxConnections, CancellationToken cancellationToken, JobProgress? progress = null)
    {
        _progress = progress;
        _group = client.OpenGroup(new FetchGroupOptions
        {
            Kind = OperationKind.Queue,
            ConnectionCap = Math.Max(1, maxConnections),
            MaxInFlight = Math.Max(1, maxInFlight),
            MaxAttempts = 3,
            DemandFactor = 1,
            IdleTimeout = TimeSpan.Zero,
        });
        _onCancelled = cancellationToken.UnsafeRegister(static state => _ = ((FetchGroup)state!).AbortAsync().AsTask(), _group);
    }

    /// <summary>Queues a BODY; <paramref name="newTarget"/> gives a fresh target to every attempt.</summary>
    public Task<YencHeader> FetchAsync(string messageId, Func<IYencBodyTarget> newTarget)
    {
        var request = new QueuedArticle(messageId, Interlocked.Increment(ref _submitted), newTarget);
        if (_progress is { } progress)
        {
            progress.Planning();
#pragma warning disable RS0030 // A continuation runs once the task has completed, and reads Result only when it succeeded: nothing blocks.
            request.Task.ContinueWith(static (task, state) => ((JobProgress)state!).Answered(task.IsCompletedSuccessfully ? task.Result.PartSize : 0),
                progress, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
#pragma warning restore RS0030
        }

        _group.Submit(request);
        _group.Wake();
        return request.Task;
    }

    public async ValueTask DisposeAsync()
    {
        await _onCancelled.DisposeAsync();
        await _group.DisposeAsync();
    }

    /// <summary>One article of the job: its answer as a task.</summary>
    private sealed class QueuedArticle(string messageId, long order, Func<IYencBodyTarget> newTarget) : ArticleRequest(messageId, order)
    {
        private readonly TaskCompletionSource<YencHeader> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task<YencHeader> Task => _completion.Task;

        protected override bool IsWanted => !_completion.Task.IsCompleted;

        protected override IYencBodyTarget CreateTarget() => newTarget();

        protected override void OnFound(YencHeader? header) => _completion.TrySetResult(header!);

        protected override void OnFailed(Exception error) => _completion.TrySetException(error);

        protected override void OnCancelled() => _completion.TrySetCanceled();
    }
}
