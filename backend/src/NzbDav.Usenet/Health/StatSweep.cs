using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Health;

/// <summary>
/// Pipelined STATs through one long-lived <see cref="FetchGroup"/>, shared by every check that runs
/// at the same time (a file check waits one round trip per window, not per article). Failover is the
/// engine's: an article is <see cref="ArticleAvailability.Missing"/> only when every provider in
/// force answered 430 and none failed; a timeout, a 502 or a dropped session anywhere makes it
/// <see cref="ArticleAvailability.Unknown"/>. As a health sweep it draws health-check permits and
/// yields borrowed connections whenever a player or a job waits (see <see cref="FetchGroupOptions.YieldToOtherKinds"/>).
/// </summary>
public sealed class StatSweep : IAsyncDisposable
{
    private readonly FetchGroup _group;
    private readonly int _window;
    private long _sequence;

    /// <param name="client">Providers and leases.</param>
    /// <param name="kind">The limiter pool: <see cref="OperationKind.HealthCheck"/> for sweeps, the job's pool for an import check.</param>
    /// <param name="window">Most STATs one <see cref="CheckAsync(IReadOnlyList{string}, CancellationToken)"/> keeps out at once, so checks running together share the pipelines.</param>
    public StatSweep(UsenetClient client, OperationKind kind, int window = 1024)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentOutOfRangeException.ThrowIfLessThan(window, 1);
        _window = window;
        _group = client.OpenGroup(new FetchGroupOptions
        {
            Kind = kind,
            // The limiter's maximum for the kind caps it; the group asks for what its demand needs.
            ConnectionCap = 1000,
            MaxAttempts = null,
            DemandFactor = 1,
            IdleTimeout = TimeSpan.Zero,
            YieldToOtherKinds = kind == OperationKind.HealthCheck,
        });
    }

    /// <summary>Retries and leases of the sweep's group.</summary>
    public FetchStatistics Statistics => _group.Statistics;

    /// <summary>
    /// STATs every id (duplicates are asked once each time they appear) and returns one outcome per
    /// id, in the same order. Cancelling ends the wait at once; what was not answered is Unknown.
    /// </summary>
    public Task<ArticleAvailability[]> CheckAsync(IReadOnlyList<string> messageIds, CancellationToken cancellationToken) =>
        CheckAsync(messageIds, null, cancellationToken);

    /// <summary>As above, counting answers into <paramref name="progress"/> as they come (for a page that shows a running check).</summary>
    public async Task<ArticleAvailability[]> CheckAsync(IReadOnlyList<string> messageIds, SweepProgress? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(messageIds);
        progress?.Begin(messageIds.Count);
        var batch = new Batch(messageIds.Count, Math.Min(_window, Math.Max(1, messageIds.Count)), progress);
        if (messageIds.Count == 0)
        {
            return batch.Results;
        }
        await using var registration = cancellationToken.UnsafeRegister(static state => ((Batch)state!).Cancel(), batch).ConfigureAwait(false);
        for (var i = 0; i < messageIds.Count; i++)
        {
            await batch.Slots.WaitAsync(cancellationToken).ConfigureAwait(false);
            _group.Submit(new Request(batch, i, messageIds[i], Interlocked.Increment(ref _sequence)));
            // Wake once per burst of free slots, not per STAT.
            if (batch.Slots.CurrentCount == 0 || i == messageIds.Count - 1)
            {
                _group.Wake();
            }
        }
        await batch.Done.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
        return batch.Results;
    }

    public ValueTask DisposeAsync() => _group.DisposeAsync();

    private sealed class Batch(int count, int window, SweepProgress? progress)
    {
        private int _remaining = count;
        private int _cancelled;

        public ArticleAvailability[] Results { get; } = new ArticleAvailability[count];

        public SemaphoreSlim Slots { get; } = new(window, window);

        public TaskCompletionSource Done { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public bool IsCancelled => Volatile.Read(ref _cancelled) != 0;

        public void Answer(int index, ArticleAvailability result)
        {
            if (IsCancelled)
            {
                return;
            }
            Results[index] = result;
            progress?.Answered(result);
            Slots.Release();
            if (Interlocked.Decrement(ref _remaining) == 0)
            {
                Done.TrySetResult();
            }
        }

        public void Cancel()
        {
            Volatile.Write(ref _cancelled, 1);
            Done.TrySetCanceled();
        }
    }

    private sealed class Request(Batch batch, int index, string messageId, long order)
        : ArticleRequest(messageId, order, ArticleCommand.Stat)
    {
        private int _answered;

        protected internal override bool IsWanted => !batch.IsCancelled && Volatile.Read(ref _answered) == 0;

        protected internal override void OnFound(YencHeader? header) => Answer(ArticleAvailability.Present);

        protected internal override void OnMissing(ArticleMissingException error) => Answer(ArticleAvailability.Missing);

        protected internal override void OnFailed(Exception error) => Answer(ArticleAvailability.Unknown);

        protected internal override void OnCancelled() => Answer(ArticleAvailability.Unknown);

        private void Answer(ArticleAvailability result)
        {
            if (Interlocked.Exchange(ref _answered, 1) == 0)
            {
                batch.Answer(index, result);
            }
        }
    }
}
