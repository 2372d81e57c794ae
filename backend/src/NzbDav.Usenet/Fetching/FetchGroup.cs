using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

/// <summary>
/// The fetch engine for one consumer (a stream, an ingestion job, a health sweep, a single call).
/// It leases connections from one limiter pool, keeps each connection's pipeline full with the
/// lowest-ordered requests, and owns every decision about a request that did not arrive: a 430 or a
/// corrupt copy rules its provider out and the request goes to a connection of another provider
/// (leasing one that avoids the ruled-out providers when the group holds none); a broken connection
/// is retried elsewhere a bounded number of times; the request the reader waits for is raced on a
/// second connection once it is late. A single loop owns all of this state; consumers and
/// connections talk to it through lock-free queues and one wake-up signal, and the data never passes
/// through it: BODY answers decode straight into the requests' own targets.
/// </summary>
public sealed class FetchGroup : IAsyncDisposable
{
    private static readonly TimeSpan ShutdownGrace = TimeSpan.FromSeconds(5);
    private static readonly long ContentionCheckTicks = Ticks(TimeSpan.FromMilliseconds(50));

    private readonly UsenetClient _client;
    private readonly FetchGroupOptions _options;
    private readonly ILogger _logger;
    private readonly ConcurrentQueue<ArticleRequest> _submitted = new();
    private readonly ConcurrentQueue<ArticleRequest> _withdrawn = new();
    private readonly ConcurrentQueue<FetchAttempt> _finished = new();
    private readonly ConcurrentQueue<FetchWorker> _acquired = new();
    private readonly AsyncSignal _signal = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly ITimer _timer;
    private readonly PriorityQueue<ArticleRequest, (long Order, long Sequence)> _pending = new();
    private readonly List<FetchWorker> _workers = [];
    private readonly List<FetchAttempt> _running = [];
    private readonly List<Task> _closing = [];
    private readonly FetchTimings _timings = new();
    private readonly Task _loop;
    private ArticleRequest? _head;
    private Exception? _fatal;
    private IReadOnlyList<string>? _wantAvoiding;
    private long _sequence;
    private long _nextWakeAt = long.MaxValue;
    private long _armedFor = long.MaxValue;
    private int _pipelineDepth = 4;
    private int _anticipated;
    private bool _wantExtraLease;
    private int _timerFired;
    private int _stop;
    private int _abort;
    private int _stopped;

    internal FetchGroup(UsenetClient client, FetchGroupOptions options, ILogger logger, FetchStatistics? statistics)
    {
        options.Validate();
        _client = client;
        _options = options;
        _logger = logger;
        Statistics = statistics ?? new FetchStatistics();
        _timer = TimeProvider.System.CreateTimer(static state => ((FetchGroup)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        _loop = RunAsync();
    }

    /// <summary>Retries, races and leases of this group.</summary>
    public FetchStatistics Statistics { get; }

    /// <summary>Median time from request to first decoded byte, or the seed latency before any fetch finished.</summary>
    public TimeSpan? MedianTimeToFirstByte => _timings.MedianFirstByte ?? _options.SeedLatency;

    /// <summary>Queues a request; it is picked up at the next <see cref="Wake"/>. Never blocks.</summary>
    public void Submit(ArticleRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        _submitted.Enqueue(request);
        if (Volatile.Read(ref _fatal) is { } fatal)
        {
            FailRequest(request, fatal);
        }
        else if (Volatile.Read(ref _stopped) != 0)
        {
            // The loop is gone: nobody else will ever answer what is queued now.
            CancelSubmittedAfterStop();
        }
    }

    /// <summary>The consumer lost interest: attempts for it whose answer has not started are dropped.</summary>
    public void Withdraw(ArticleRequest request) => _withdrawn.Enqueue(request);

    /// <summary>The request the reader is blocked on: the one raced when late, worth a connection beyond the cap.</summary>
    public void SetHead(ArticleRequest request) => Volatile.Write(ref _head, request);

    /// <summary>
    /// How many requests the consumer expects to have out soon (0 after a seek), so connections are
    /// opened before the demand arrives (each costs a round trip or two).
    /// </summary>
    public void Anticipate(int requests) => Volatile.Write(ref _anticipated, requests);

    /// <summary>Opens, without leasing, enough sessions for about this many requests in flight. Never blocks.</summary>
    public void Warm(int requests)
    {
        if (Volatile.Read(ref _stop) == 0 && requests > 0)
        {
            _client.Warm(Math.Min(ConnectionCap(), (requests + _pipelineDepth - 1) / _pipelineDepth));
        }
    }

    /// <summary>Applies what was queued since the last call.</summary>
    public void Wake() => _signal.Set();

    /// <summary>
    /// Stops: requests not yet answered are cancelled (<see cref="ArticleRequest.OnCancelled"/>),
    /// answers already decoding may finish within a grace period, every lease goes back.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _stop, 1) == 0)
        {
            _signal.Set();
        }
        await _loop.ConfigureAwait(false);
    }

    /// <summary>
    /// Stops at once: like <see cref="DisposeAsync"/>, but answers already decoding are cut too (their
    /// connections break), for a caller that gave up and must not wait for them.
    /// </summary>
    public ValueTask AbortAsync()
    {
        Volatile.Write(ref _abort, 1);
        return DisposeAsync();
    }

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    private async Task RunAsync()
    {
        // Let the constructor return before the first pass.
        await Task.Yield();
        try
        {
            while (Volatile.Read(ref _stop) == 0)
            {
                await _signal.WaitAsync(CancellationToken.None).ConfigureAwait(false);
                if (Volatile.Read(ref _stop) != 0)
                {
                    break;
                }
                Pass(Stopwatch.GetTimestamp());
            }
        }
        catch (Exception error)
        {
            FetchLog.GroupFailed(_logger, error);
            Volatile.Write(ref _fatal, error);
            FailEverything(error);
        }
        finally
        {
            await ShutdownAsync().ConfigureAwait(false);
        }
    }

    private void Pass(long now)
    {
        if (Interlocked.Exchange(ref _timerFired, 0) != 0)
        {
            // Timers may fire a little early; whatever is still due must be armed again.
            _armedFor = long.MaxValue;
        }
        _nextWakeAt = long.MaxValue;
        while (_acquired.TryDequeue(out var worker))
        {
            OnAcquired(worker, now);
        }
        while (_finished.TryDequeue(out var attempt))
        {
            OnFinished(attempt, now);
        }
        while (_withdrawn.TryDequeue(out var withdrawn))
        {
            OnWithdrawn(withdrawn);
        }
        while (_submitted.TryDequeue(out var submitted))
        {
            Enqueue(submitted);
        }
        RaceStraggler(now);
        Dispatch(now);
        ManageWorkers(now);
        ArmTimer(now);
    }

    // ---- requests: queueing and handing them to connections ----

    private static bool NeedsFetch(ArticleRequest request) =>
        !request.State.Settled && request.State.Attempts.Count == 0 && request.IsWanted;

    private void Enqueue(ArticleRequest request)
    {
        if (!request.State.Queued && NeedsFetch(request))
        {
            request.State.Queued = true;
            _pending.Enqueue(request, (request.Order, _sequence++));
        }
    }

    private void Dispatch(long now)
    {
        while (_running.Count < _options.MaxInFlight && _pending.TryPeek(out var request, out _))
        {
            if (!NeedsFetch(request))
            {
                _pending.Dequeue();
                request.State.Queued = false;
                continue;
            }
            if (AllProvidersRuledOut(request))
            {
                _pending.Dequeue();
                request.State.Queued = false;
                GiveUp(request, null, null);
                continue;
            }
            var worker = PickWorker(request);
            if (worker is null)
            {
                // The reader is blocked on this one: worth a connection beyond the usual count.
                _wantExtraLease |= ReferenceEquals(request, Volatile.Read(ref _head));
                return;
            }
            _pending.Dequeue();
            request.State.Queued = false;
            Start(request, worker, now);
        }
    }

    /// <summary>
    /// The least loaded connection with a free pipeline slot to a provider not ruled out for the
    /// request (the first such, in a stable order, avoiding the one that failed it last if possible).
    /// When no connection of the group can serve it and none that could is busy or on its way, the
    /// group asks for a lease that avoids the ruled-out providers.
    /// </summary>
    private FetchWorker? PickWorker(ArticleRequest request)
    {
        var state = request.State;
        FetchWorker? best = null;
        var bestRank = int.MaxValue;
        var goodBusy = false;
        foreach (var worker in _workers)
        {
            if (worker.State == FetchWorkerState.Acquiring)
            {
                // A lease on its way that cannot land on a ruled-out provider will serve it.
                goodBusy |= worker.Avoid is { } avoid && !worker.AcquireCancellation.IsCancellationRequested && Covers(avoid, Excluded(request));
                continue;
            }
            if (IsExcluded(request, worker.ProviderName!))
            {
                continue;
            }
            if (!worker.HasCapacity)
            {
                goodBusy |= worker.State == FetchWorkerState.Ready && worker.Lease!.Connection.IsUsable && !worker.Lease.IsRetired;
                continue;
            }
            // Least loaded first: requests spread over connections transfer in parallel rather
            // than one after another on a single connection.
            var rank = ((ReferenceEquals(worker, state.Avoid) ? 1 : 0) * 1024) + worker.InFlight;
            if (rank < bestRank)
            {
                best = worker;
                bestRank = rank;
            }
        }
        if (best is null && !goodBusy && !HasPlainAcquisition() && Excluded(request) is { Count: > 0 } excluded)
        {
            _wantAvoiding ??= excluded;
        }
        return best;
    }

    private bool HasPlainAcquisition() =>
        _workers.Exists(static w => w.State == FetchWorkerState.Acquiring && w.Avoid is null && !w.AcquireCancellation.IsCancellationRequested);

    private static bool Covers(IReadOnlyList<string> avoid, IReadOnlyList<string> excluded)
    {
        foreach (var provider in excluded)
        {
            if (!avoid.Contains(provider))
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>
    /// Whether the request should not go to <paramref name="provider"/>: never once the provider is
    /// done with it (it answered 430, or failed it the client's attempts per provider); after a
    /// corrupt copy only while some other provider is still worth asking.
    /// </summary>
    private bool IsExcluded(ArticleRequest request, string provider)
    {
        if (IsExhausted(request, provider))
        {
            return true;
        }
        if (!request.State.IsBad(provider))
        {
            return false;
        }
        foreach (var name in _client.ProviderNames)
        {
            if (!request.State.IsBad(name) && !IsExhausted(request, name))
            {
                return true;
            }
        }
        return false;
    }

    private bool IsExhausted(ArticleRequest request, string provider)
    {
        var state = request.State;
        return state.MissingOn?.Contains(provider) == true || state.FaultsOn(provider) >= _client.MaxAttemptsPerProvider;
    }

    private List<string> Excluded(ArticleRequest request)
    {
        var excluded = new List<string>();
        foreach (var name in _client.ProviderNames)
        {
            if (IsExcluded(request, name))
            {
                excluded.Add(name);
            }
        }
        return excluded;
    }

    private int MaxAttempts() => _options.MaxAttempts ?? int.MaxValue;

    private void Start(ArticleRequest request, FetchWorker worker, long now)
    {
        var attempt = new FetchAttempt(request, worker, now);
        request.State.Attempts.Add(attempt);
        _running.Add(attempt);
        worker.InFlight++;
        attempt.Task = RunAttemptAsync(attempt);
    }

    private async Task RunAttemptAsync(FetchAttempt attempt)
    {
        var token = attempt.Cancellation.Token;
        var connection = attempt.Worker.Lease!.Connection;
        var request = attempt.Request;
        try
        {
            if (request.Command == ArticleCommand.Stat)
            {
                attempt.Outcome = await connection.StatAsync(request.MessageId, token).ConfigureAwait(false)
                    ? FetchOutcome.Succeeded
                    : FetchOutcome.Missing;
            }
            else
            {
                var target = attempt.Wrap(request.CreateTarget());
                attempt.Header = await connection.BodyAsync(request.MessageId, target, token).ConfigureAwait(false);
                attempt.Outcome = FetchOutcome.Succeeded;
            }
        }
        catch (Exception error)
        {
            attempt.Error = error;
            attempt.Outcome = FailureClassifier.Classify(error, token) switch
            {
                FailureKind.Missing => FetchOutcome.Missing,
                FailureKind.Corrupt => FetchOutcome.Corrupt,
                FailureKind.Cancelled => FetchOutcome.Cancelled,
                FailureKind.ProviderFault => FetchOutcome.Retryable,
                _ => FetchOutcome.Fatal,
            };
        }
        finally
        {
            attempt.EndTarget(attempt.Outcome == FetchOutcome.Succeeded);
        }
        _finished.Enqueue(attempt);
        _signal.Set();
    }

    private void OnFinished(FetchAttempt attempt, long now)
    {
        _running.Remove(attempt);
        attempt.Cancellation.Dispose();
        var worker = attempt.Worker;
        if (--worker.InFlight == 0)
        {
            worker.IdleSince = now;
        }
        if (worker.State == FetchWorkerState.Ready && (!worker.Lease!.Connection.IsUsable || worker.Lease.IsRetired))
        {
            Drain(worker, breakConnection: false);
        }
        var request = attempt.Request;
        var state = request.State;
        state.Attempts.Remove(attempt);
        var provider = worker.ProviderName!;
        switch (attempt.Outcome)
        {
            case FetchOutcome.Succeeded:
                if (attempt.BegunAt != 0)
                {
                    _timings.Record(attempt.BegunAt - attempt.StartedAt, now - attempt.StartedAt);
                }
                foreach (var loser in state.Attempts.ToArray())
                {
                    CancelLoser(loser);
                }
                if (!state.Settled)
                {
                    state.Settled = true;
                    request.OnFound(attempt.Header);
                }
                return;
            case FetchOutcome.Cancelled:
                // Dropped because its connection was drained, not because the consumer left: fetch elsewhere.
                Enqueue(request);
                return;
        }
        if (state.Settled || !request.IsWanted || state.Attempts.Count > 0)
        {
            return; // answered, abandoned, or the other racer may still deliver
        }
        if (attempt.Outcome == FetchOutcome.Fatal)
        {
            Settle(request, attempt.Error!);
            return;
        }
        if (Decide(request, attempt, provider))
        {
            FetchLog.AttemptFailed(_logger, request.MessageId, provider, attempt.Outcome, attempt.Error);
            Statistics.Retried();
            state.Avoid = worker;
            Enqueue(request);
        }
    }

    /// <summary>
    /// What a failed attempt means for its request: true to try again; otherwise the request was
    /// answered. A 430 rules its provider out for good without counting as a failure (each rules out
    /// one more provider, so it ends by itself); a corrupt copy counts and sends the retry elsewhere
    /// while another provider is left; a connection failure counts, and after the client's attempts
    /// per provider sends retries elsewhere too.
    /// </summary>
    private bool Decide(ArticleRequest request, FetchAttempt attempt, string provider)
    {
        var state = request.State;
        switch (attempt.Outcome)
        {
            case FetchOutcome.Missing:
                state.AddMissing(provider);
                break;
            case FetchOutcome.Corrupt:
                (state.Failures ??= []).Add(new ProviderFailure(provider, $"corrupt article: {attempt.Error!.Message}", attempt.Error));
                state.MarkBad(provider);
                state.FailedAttempts++;
                break;
            default:
                (state.Failures ??= []).Add(new ProviderFailure(provider, attempt.Error!.Message, attempt.Error));
                state.FailedAttempts++;
                break;
        }
        if (AllProvidersRuledOut(request) || state.FailedAttempts >= MaxAttempts())
        {
            GiveUp(request, attempt, provider);
            return false;
        }
        return true;
    }

    /// <summary>Every provider in force is done with the request (or there is none): nobody is left to ask.</summary>
    private bool AllProvidersRuledOut(ArticleRequest request)
    {
        foreach (var name in _client.ProviderNames)
        {
            if (!IsExhausted(request, name))
            {
                return false;
            }
        }
        return true;
    }

    private void GiveUp(ArticleRequest request, FetchAttempt? last, string? provider)
    {
        var state = request.State;
        if (state.Failures is null && state.MissingOn is { Count: > 0 } missing)
        {
            Settle(request, new ArticleMissingException(request.MessageId, [.. missing]));
            return;
        }
        var failures = state.Failures ?? [new ProviderFailure("(none)", _client.ProviderCount == 0 ? "no Usenet provider is configured" : "no provider is left to ask")];
        var note = state.FailedAttempts >= MaxAttempts() && !AllProvidersRuledOut(request)
            ? $"gave up after {state.FailedAttempts} failed tries"
            : null;
        FetchLog.GaveUp(_logger, request.MessageId, provider ?? "-", last?.Error?.Message ?? failures[^1].Reason);
        Settle(request, new ArticleFetchFailedException(request.MessageId, state.MissingOn ?? [], failures, note));
    }

    private static void Settle(ArticleRequest request, Exception error)
    {
        var state = request.State;
        if (state.Settled)
        {
            return;
        }
        state.Settled = true;
        if (error is ArticleMissingException missing)
        {
            request.OnMissing(missing);
        }
        else
        {
            request.OnFailed(error);
        }
    }

    private static void FailRequest(ArticleRequest request, Exception error)
    {
        // Called from the consumer's thread when the loop already died: no loop owns the state now.
        if (request.IsWanted)
        {
            request.OnFailed(new InvalidOperationException($"The fetch group failed: {error.Message}", error));
        }
    }

    // ---- stragglers and withdrawn requests ----

    /// <summary>
    /// The request the reader waits for has been out longer than a few median fetch times, or its
    /// connection has sent nothing for a few median first-byte times: ask another connection too.
    /// Whichever answers first is used.
    /// </summary>
    private void RaceStraggler(long now)
    {
        var head = Volatile.Read(ref _head);
        if (!_options.RaceStragglers || head is null)
        {
            return;
        }
        var state = head.State;
        if (state.Raced || state.Attempts.Count != 1 || state.Settled || !head.IsWanted)
        {
            return;
        }
        var current = state.Attempts[0];
        var due = Math.Min(
            current.StartedAt + StragglerDelayTicks(),
            Math.Max(current.StartedAt, current.Worker.LastProgressAt) + SilenceDelayTicks());
        if (now < due)
        {
            WakeAt(due);
            return;
        }
        var worker = PickRacer(head, current.Worker);
        if (worker is null)
        {
            _wantExtraLease = true;
            return;
        }
        state.Raced = true;
        Statistics.StragglerRaced();
        FetchLog.StragglerRaced(_logger, head.MessageId, (long)Stopwatch.GetElapsedTime(current.StartedAt, now).TotalMilliseconds);
        Start(head, worker, now);
    }

    /// <summary>A connection other than the straggler's, to a provider not ruled out, with a free pipeline slot.</summary>
    private FetchWorker? PickRacer(ArticleRequest request, FetchWorker straggler)
    {
        foreach (var worker in _workers)
        {
            if (worker.HasCapacity && !ReferenceEquals(worker, straggler) && !IsExcluded(request, worker.ProviderName!))
            {
                return worker;
            }
        }
        return null;
    }

    private long SilenceDelayTicks()
    {
        var minimum = Ticks(_options.MinimumStragglerDelay);
        return _timings.Count < 3
            ? Math.Max(minimum, Ticks(TimeSpan.FromSeconds(1)))
            : Math.Max(minimum, (long)(_timings.MedianFirstByteTicks * _options.StragglerFactor));
    }

    private long StragglerDelayTicks()
    {
        var minimum = Ticks(_options.MinimumStragglerDelay);
        if (_timings.Count < 3)
        {
            return Math.Max(minimum, Ticks(TimeSpan.FromSeconds(1)));
        }
        var byMedian = (long)(_timings.MedianTotalTicks * _options.StragglerFactor);
        var byFloor = (long)(_timings.FloorTicks * _options.StragglerLatencyFloorFactor);
        return Math.Max(minimum, Math.Max(byMedian, byFloor));
    }

    private static void OnWithdrawn(ArticleRequest request)
    {
        foreach (var attempt in request.State.Attempts)
        {
            if (!attempt.HasBegun)
            {
                Cancel(attempt);
            }
        }
    }

    /// <summary>
    /// A race was won; the other attempt lost. If its answer has not started, its connection is stuck
    /// behind it: drop the request and close that connection once idle (returning it to the pool
    /// would hand the stall to someone else). If it is already receiving, let it finish (cancelling
    /// would break the connection and everything pipelined on it) but give it no more work.
    /// </summary>
    private void CancelLoser(FetchAttempt loser)
    {
        if (loser.HasBegun)
        {
            Drain(loser.Worker, breakConnection: false);
            return;
        }
        Cancel(loser);
        Drain(loser.Worker, breakConnection: true);
    }

    /// <summary>No more work for this worker; its unanswered requests are dropped and fetched elsewhere.</summary>
    private void Drain(FetchWorker worker, bool breakConnection)
    {
        worker.BreakOnClose |= breakConnection;
        if (worker.State != FetchWorkerState.Ready)
        {
            return;
        }
        worker.State = FetchWorkerState.Draining;
        foreach (var attempt in _running)
        {
            if (ReferenceEquals(attempt.Worker, worker) && !attempt.HasBegun)
            {
                Cancel(attempt);
            }
        }
    }

    private static void Cancel(FetchAttempt attempt)
    {
        if (!attempt.CancelRequested)
        {
            attempt.CancelRequested = true;
            attempt.Cancellation.Cancel();
        }
    }

    // ---- leases: taken as demand grows (one step ahead of it), returned when idle, broken when in doubt ----

    /// <summary>Most leases worth holding: the option, but never more than the providers could ever grant.</summary>
    private int ConnectionCap() => Math.Max(1, Math.Min(_options.ConnectionCap, _client.PrimaryCapacity));

    private void ManageWorkers(long now)
    {
        // Lease for the demand times the demand factor, or for what the consumer expects to want
        // soon: a new connection costs a round trip or two to open, so open it while the demand is
        // still growing. Idle leases are kept only for actual demand. While another consumer of the
        // same pool waits for a permit, idle leases go back at once and none are taken ahead of
        // demand: a new playback must not wait behind read-ahead that is already full.
        var cap = ConnectionCap();
        var contended = _client.HasWaiters(_options.Kind);
        var work = _pending.Count + _running.Count;
        var needed = Math.Min(cap, (int)Math.Ceiling(work * _options.DemandFactor / _pipelineDepth));
        var anticipated = work == 0 || contended ? 0 : Volatile.Read(ref _anticipated);
        var desired = Math.Max(needed, Math.Min(cap, (anticipated + _pipelineDepth - 1) / _pipelineDepth));
        if (_wantExtraLease)
        {
            desired = Math.Min(Math.Max(desired, CountActive() + 1), cap + 1);
            needed = Math.Max(needed, desired);
            _wantExtraLease = false;
        }
        var active = CountActive();
        var idleTicks = Ticks(_options.IdleTimeout);
        // From the back: the newest leases go back first.
        for (var i = _workers.Count - 1; i >= 0; i--)
        {
            var worker = _workers[i];
            switch (worker.State)
            {
                case FetchWorkerState.Acquiring when active > desired && worker.Avoid is null && !worker.AcquireCancellation.IsCancellationRequested:
                    // Not needed any more: stop waiting for it rather than take a lease only to idle.
                    active--;
                    worker.AcquireCancellation.Cancel();
                    break;
                case FetchWorkerState.Draining when worker.InFlight == 0:
                    Close(worker);
                    break;
                case FetchWorkerState.Ready when worker.InFlight == 0 && (!worker.Lease!.Connection.IsUsable || worker.Lease.IsRetired || CannotServeAnyPending(worker)):
                    active--;
                    Close(worker);
                    break;
                case FetchWorkerState.Ready when worker.InFlight == 0 && active > needed:
                    if (contended || now - worker.IdleSince >= idleTicks)
                    {
                        active--;
                        Close(worker);
                    }
                    else
                    {
                        // Look again soon: others may start waiting while this one idles.
                        WakeAt(Math.Min(worker.IdleSince + idleTicks, now + ContentionCheckTicks));
                    }
                    break;
            }
        }
        for (; active < desired; active++)
        {
            StartAcquire(now, avoid: null);
        }
        if (_wantAvoiding is { } avoiding)
        {
            _wantAvoiding = null;
            StartAcquire(now, avoiding);
        }
        _closing.RemoveAll(static task => task.IsCompleted);
    }

    /// <summary>
    /// An idle lease whose provider is ruled out for every request waiting: keeping it only holds a
    /// permit (and a session another consumer of that provider may be waiting for).
    /// </summary>
    private bool CannotServeAnyPending(FetchWorker worker)
    {
        if (_pending.Count == 0)
        {
            return false;
        }
        var provider = worker.ProviderName!;
        foreach (var (request, _) in _pending.UnorderedItems)
        {
            if (NeedsFetch(request) && !IsExcluded(request, provider))
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>Workers holding or waiting for a lease that will take work (avoiding acquisitions aside).</summary>
    private int CountActive()
    {
        var active = 0;
        foreach (var worker in _workers)
        {
            if (worker.State == FetchWorkerState.Ready
                || (worker.State == FetchWorkerState.Acquiring && worker.Avoid is null && !worker.AcquireCancellation.IsCancellationRequested))
            {
                active++;
            }
        }
        return active;
    }

    private void StartAcquire(long now, IReadOnlyList<string>? avoid)
    {
        var worker = new FetchWorker(now, avoid, _stopping.Token);
        _workers.Add(worker);
        worker.Acquisition = AcquireAsync(worker);
    }

    private async Task AcquireAsync(FetchWorker worker)
    {
        try
        {
            worker.Lease = await _client.AcquireAsync(_options.Kind, worker.Avoid, worker.AcquireCancellation.Token).ConfigureAwait(false);
        }
        catch (Exception error)
        {
            worker.AcquireError = error;
        }
        _acquired.Enqueue(worker);
        _signal.Set();
    }

    private void OnAcquired(FetchWorker worker, long now)
    {
        var withdrawn = worker.AcquireCancellation.IsCancellationRequested;
        worker.AcquireCancellation.Dispose();
        if (worker.Lease is { } lease)
        {
            Statistics.LeaseAcquired(now - worker.AcquireStartedAt);
            worker.PipelineDepth = Math.Max(1, lease.Connection.PipelineDepth);
            _pipelineDepth = worker.PipelineDepth;
            worker.State = FetchWorkerState.Ready;
            // Granted just as it was called off: idle since forever, so it goes back unless needed.
            worker.IdleSince = withdrawn ? 0 : now;
            return;
        }
        _workers.Remove(worker);
        worker.State = FetchWorkerState.Closed;
        var error = worker.AcquireError;
        if (error is OperationCanceledException && withdrawn)
        {
            return;
        }
        if (worker.Avoid is { } avoid)
        {
            // No other provider could lend a session for the requests this group's providers cannot
            // serve: that counts as a failed try for each of them.
            FailWaitingFor(avoid, error);
            return;
        }
        if (_workers.Exists(static w => w.State is FetchWorkerState.Acquiring or FetchWorkerState.Ready))
        {
            // Others are fetching: one more connection was simply not to be had right now.
            FetchLog.ExtraLeaseUnavailable(_logger, error?.Message);
            return;
        }
        FetchLog.LeaseFailed(_logger, error);
        // Nothing to fetch with: the requests waiting fail now (a later submission tries again).
        while (_pending.TryDequeue(out var request, out _))
        {
            request.State.Queued = false;
            if (NeedsFetch(request))
            {
                Settle(request, error is NoProviderAvailableException or ConnectionPoolTimeoutException
                    ? error
                    : new NoProviderAvailableException([new ProviderFailure("(lease)", error?.Message ?? "no connection could be leased", error)]));
            }
        }
    }

    private void FailWaitingFor(IReadOnlyList<string> avoid, Exception? error)
    {
        // Which providers failed to lend a session (each once), so their failures count like failed attempts there.
        var failed = (error as NoProviderAvailableException)?.Failures
            .GroupBy(f => f.ProviderName, StringComparer.OrdinalIgnoreCase).Select(g => g.Last()).ToList()
            ?? [new ProviderFailure("(other providers)", $"no session on a provider not yet tried: {error?.Message}", error)];
        var waiting = new List<ArticleRequest>();
        while (_pending.TryDequeue(out var request, out _))
        {
            request.State.Queued = false;
            waiting.Add(request);
        }
        foreach (var request in waiting)
        {
            var state = request.State;
            if (NeedsFetch(request) && Excluded(request) is { Count: > 0 } excluded && Covers(avoid, excluded) && !HasGoodWorker(request))
            {
                (state.Failures ??= []).AddRange(failed);
                if (++state.FailedAttempts >= MaxAttempts() || AllProvidersRuledOut(request))
                {
                    GiveUp(request, null, null);
                    continue;
                }
            }
            Enqueue(request);
        }
    }

    private bool HasGoodWorker(ArticleRequest request) =>
        _workers.Exists(w => w.State == FetchWorkerState.Ready && !IsExcluded(request, w.ProviderName!));

    private void Close(FetchWorker worker)
    {
        _workers.Remove(worker);
        if (worker.State != FetchWorkerState.Acquiring)
        {
            Statistics.LeaseReleased();
        }
        worker.State = FetchWorkerState.Closed;
        _closing.Add(CloseLeaseAsync(worker.Lease!, worker.BreakOnClose));
    }

    private async Task CloseLeaseAsync(UsenetLease lease, bool breakConnection)
    {
        try
        {
            if (breakConnection)
            {
                // It may still owe an answer we abandoned: never let the pool lend it again.
                await lease.Connection.DisposeAsync().ConfigureAwait(false);
            }
        }
        catch (Exception error)
        {
            FetchLog.LeaseCloseFailed(_logger, lease.ProviderName, error);
        }
        finally
        {
            await lease.DisposeAsync().ConfigureAwait(false);
        }
    }

    // ---- the loop's timer, failure and shutdown ----

    private void OnTimer()
    {
        Volatile.Write(ref _timerFired, 1);
        _signal.Set();
    }

    private void WakeAt(long timestamp) => _nextWakeAt = Math.Min(_nextWakeAt, timestamp);

    private void ArmTimer(long now)
    {
        if (_nextWakeAt == _armedFor)
        {
            return;
        }
        _armedFor = _nextWakeAt;
        if (_nextWakeAt == long.MaxValue)
        {
            _timer.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
            return;
        }
        var delay = Stopwatch.GetElapsedTime(now, _nextWakeAt);
        _timer.Change(delay < TimeSpan.FromMilliseconds(1) ? TimeSpan.FromMilliseconds(1) : delay, Timeout.InfiniteTimeSpan);
    }

    private void FailEverything(Exception error)
    {
        var wrapped = new InvalidOperationException($"The fetch group failed: {error.Message}", error);
        while (_submitted.TryDequeue(out var submitted))
        {
            Settle(submitted, wrapped);
        }
        while (_pending.TryDequeue(out var pending, out _))
        {
            Settle(pending, wrapped);
        }
        foreach (var attempt in _running)
        {
            Settle(attempt.Request, wrapped);
        }
    }

    private async Task ShutdownAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        // Requests still waiting for their answer are dropped at once; answers already being
        // decoded are let finish (cancelling those would break the connection), within a grace period.
        var abort = Volatile.Read(ref _abort) != 0;
        foreach (var attempt in _running)
        {
            if (abort || !attempt.HasBegun)
            {
                Cancel(attempt);
            }
        }
        var attempts = Task.WhenAll(_running.Select(a => a.Task));
        try
        {
            await attempts.WaitAsync(ShutdownGrace).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            foreach (var attempt in _running)
            {
                Cancel(attempt);
            }
            await attempts.ConfigureAwait(false);
        }
        // Answers that arrived in the grace period still count; everything else is cancelled.
        while (_finished.TryDequeue(out var finished))
        {
            if (finished.Outcome == FetchOutcome.Succeeded && !finished.Request.State.Settled)
            {
                finished.Request.State.Settled = true;
                finished.Request.OnFound(finished.Header);
            }
        }
        CancelUnanswered();
        Volatile.Write(ref _stopped, 1);
        CancelSubmittedAfterStop();
        await Task.WhenAll(_workers.Select(w => w.Acquisition)).ConfigureAwait(false);
        foreach (var worker in _workers.ToArray())
        {
            if (worker.State == FetchWorkerState.Acquiring)
            {
                worker.AcquireCancellation.Dispose();
            }
            if (worker.Lease is not null)
            {
                Close(worker);
            }
        }
        _workers.Clear();
        await Task.WhenAll(_closing).ConfigureAwait(false);
        await _timer.DisposeAsync().ConfigureAwait(false);
        foreach (var attempt in _running)
        {
            attempt.Cancellation.Dispose();
        }
        _stopping.Dispose();
    }

    private void CancelUnanswered()
    {
        while (_submitted.TryDequeue(out var submitted))
        {
            Enqueue(submitted);
        }
        while (_pending.TryDequeue(out var request, out _))
        {
            request.State.Queued = false;
            CancelRequest(request);
        }
        foreach (var attempt in _running)
        {
            CancelRequest(attempt.Request);
        }
    }

    private void CancelSubmittedAfterStop()
    {
        while (_submitted.TryDequeue(out var request))
        {
            CancelRequest(request);
        }
    }

    private static void CancelRequest(ArticleRequest request)
    {
        if (!request.State.Settled)
        {
            request.State.Settled = true;
            request.OnCancelled();
        }
    }
}
