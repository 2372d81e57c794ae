using System.Collections.Concurrent;
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
public sealed partial class FetchGroup : IAsyncDisposable
{
    private static readonly TimeSpan ShutdownGrace = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan ContentionCheck = TimeSpan.FromMilliseconds(50);

    private readonly UsenetClient _client;
    // The client's clock: every timestamp of the group is one of its GetTimestamp values, so the
    // timer, the straggler races and the stall decisions all follow a test's fake clock.
    private readonly TimeProvider _time;
    private readonly long _frequency;
    private readonly long _contentionCheckTicks;
    private readonly long _maximumRaceDelayTicks;
    private readonly long _slowReadTicks;
    private readonly long _raceLeaseWaitTicks;
    private readonly long _raceLeaseRetryTicks;
    private readonly FetchGroupOptions _options;
    private readonly ILogger _logger;
    private readonly ConcurrentQueue<ArticleRequest> _submitted = new();
    private readonly ConcurrentQueue<ArticleRequest> _withdrawn = new();
    private readonly ConcurrentQueue<ArticleRequest> _expedited = new();
    private readonly ConcurrentQueue<FetchAttempt> _finished = new();
    private readonly ConcurrentQueue<FetchWorker> _acquired = new();
    private readonly AsyncSignal _signal = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly ITimer _timer;
    private readonly PriorityQueue<ArticleRequest, (long Order, long Sequence)> _pending = new();
    private readonly List<FetchWorker> _workers = [];
    private readonly List<FetchAttempt> _running = [];
    private readonly List<ArticleRequest> _waited = [];
    private readonly List<Task> _closing = [];
    private readonly FetchTimings _timings;
    private readonly Task _loop;
    private ArticleRequest? _head;
    private Exception? _fatal;
    private IReadOnlyList<string>? _wantAvoiding;
    private long _sequence;
    private long _nextWakeAt = long.MaxValue;
    private long _armedFor = long.MaxValue;
    private long _nextRaceLeaseAt;
    // Why backup sessions for races were not to be had, for the slow-read warning.
    private int _raceLeaseRefusals;
    private ProviderStatus? _lastRaceLeaseRefusal;
    private int _pipelineDepth = 4;
    private int _anticipated;
    private bool _wantExtraLease;
    private bool _countedBusy;
    private int _reportedShortfall;
    private int _timerFired;
    private int _stop;
    private int _abort;
    private int _stopped;

    internal FetchGroup(UsenetClient client, FetchGroupOptions options, ILogger logger, FetchStatistics? statistics)
    {
        options.Validate();
        _client = client;
        _time = client.Time;
        _frequency = _time.TimestampFrequency;
        _contentionCheckTicks = Ticks(ContentionCheck);
        _maximumRaceDelayTicks = Ticks(MaximumRaceDelay);
        _slowReadTicks = Ticks(SlowRead);
        _raceLeaseWaitTicks = Ticks(RaceLeaseWait);
        _raceLeaseRetryTicks = Ticks(RaceLeaseRetry);
        _timings = new FetchTimings(_time);
        _options = options;
        _logger = logger;
        Statistics = statistics ?? new FetchStatistics();
        _timer = _time.CreateTimer(static state => ((FetchGroup)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
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

    /// <summary>
    /// Someone waits on this request now (a reader of another stream sharing it): it goes ahead of
    /// everything queued. Any thread; applied at the next pass (this call wakes the loop).
    /// </summary>
    public void Expedite(ArticleRequest request)
    {
        _expedited.Enqueue(request);
        _signal.Set();
    }

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

    private long Ticks(TimeSpan span) => (long)(span.TotalSeconds * _frequency);

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
                Pass(_time.GetTimestamp());
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
        while (_expedited.TryDequeue(out var expedited))
        {
            // Queued twice at worst: the copy dispatched second finds it fetching and is dropped.
            WatchWaited(expedited);
            if (NeedsFetch(expedited))
            {
                expedited.State.Queued = true;
                _pending.Enqueue(expedited, (long.MinValue, _sequence++));
            }
        }
        RaceStraggler(now);
        Dispatch(now);
        ManageWorkers(now);
        ArmTimer(now);
    }
}
