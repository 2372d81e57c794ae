using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Providers;

namespace NzbDav.Streaming;

/// <summary>
/// Fetches one stream's segments. A single loop owns all scheduling state (workers, pending
/// tickets, running attempts); everything else talks to it through lock-free queues and one
/// wake-up signal: the reader submits and withdraws tickets, attempts and lease acquisitions report
/// back when they end, a timer wakes it for straggler checks and idle leases. The data itself never
/// passes through here: fetches publish straight into the tickets the reader reads.
/// </summary>
internal sealed partial class SegmentFetchScheduler : ISegmentFetcher
{
    private static readonly TimeSpan ShutdownGrace = TimeSpan.FromSeconds(5);

    private readonly UsenetClient _client;
    private readonly StreamingOptions _options;
    private readonly ArrayPool<byte> _pool;
    private readonly StreamStatistics _statistics;
    private readonly ILogger _logger;
    private readonly TimeSpan? _seedLatency;
    private readonly string[] _providerNames;
    private readonly int _connectionCap;
    private readonly ConcurrentQueue<SegmentTicket> _submitted = new();
    private readonly ConcurrentQueue<SegmentTicket> _withdrawn = new();
    private readonly ConcurrentQueue<FetchAttempt> _finished = new();
    private readonly ConcurrentQueue<FetchWorker> _acquired = new();
    private readonly AsyncSignal _signal = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly ITimer _timer;
    private readonly PriorityQueue<SegmentTicket, int> _pending = new();
    private readonly List<FetchWorker> _workers = [];
    private readonly List<FetchAttempt> _running = [];
    private readonly List<Task> _closing = [];
    private readonly FetchTimings _timings = new();
    private readonly Task _loop;
    private SegmentTicket? _head;
    private Exception? _fatal;
    private long _nextWakeAt = long.MaxValue;
    private long _armedFor = long.MaxValue;
    private int _pipelineDepth = 4;
    private int _anticipated;
    private bool _wantExtraLease;
    private int _timerFired;
    private int _stop;

    public SegmentFetchScheduler(
        UsenetClient client, StreamingOptions options, ArrayPool<byte> pool, StreamStatistics statistics, ILogger logger, TimeSpan? seedLatency)
    {
        _client = client;
        _options = options;
        _pool = pool;
        _statistics = statistics;
        _logger = logger;
        _seedLatency = seedLatency;
        var providers = client.GetProviderStatus();
        _providerNames = providers.Select(p => p.Name).ToArray();
        // No point waiting for more leases than the providers' budget could ever grant.
        var primaries = providers.Where(p => p.Role == ProviderRole.Primary).Sum(p => p.Pool.MaxConnections);
        _connectionCap = Math.Max(1, Math.Min(options.ConnectionsPerStream, primaries > 0 ? primaries : providers.Sum(p => p.Pool.MaxConnections)));
        _timer = TimeProvider.System.CreateTimer(static state => ((SegmentFetchScheduler)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        _loop = RunAsync();
    }

    public TimeSpan? MedianTimeToFirstByte => _timings.MedianFirstByte ?? _seedLatency;

    public void Submit(SegmentTicket ticket)
    {
        _submitted.Enqueue(ticket);
        if (Volatile.Read(ref _fatal) is { } fatal)
        {
            FailTicket(ticket, fatal);
        }
    }

    public void Withdraw(SegmentTicket ticket) => _withdrawn.Enqueue(ticket);

    public void SetHead(SegmentTicket ticket) => Volatile.Write(ref _head, ticket);

    public void Anticipate(int segments) => Volatile.Write(ref _anticipated, segments);

    public void Warm(int segments)
    {
        if (Volatile.Read(ref _stop) == 0 && segments > 0)
        {
            _client.Warm(Math.Min(_connectionCap, (segments + _pipelineDepth - 1) / _pipelineDepth));
        }
    }

    public void Wake() => _signal.Set();

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _stop, 1) == 0)
        {
            _signal.Set();
        }
        await _loop.ConfigureAwait(false);
    }

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
            StreamingLog.SchedulerFailed(_logger, error);
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

    private static long Ticks(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    private static void FailTicket(SegmentTicket ticket, Exception error) =>
        FailTicket(ticket, $"the fetch scheduler failed: {error.Message}", error);

    private static void FailTicket(SegmentTicket ticket, string reason, Exception? error)
    {
        if (!ticket.IsCompleted && !ticket.IsRetired && ticket.Failure is null)
        {
            ticket.Fail(new SegmentUnavailableException(ticket.Number, ticket.MessageId, reason, error));
        }
    }

    private void FailEverything(Exception error)
    {
        while (_submitted.TryDequeue(out var submitted))
        {
            FailTicket(submitted, error);
        }
        while (_pending.TryDequeue(out var pending, out _))
        {
            FailTicket(pending, error);
        }
        foreach (var attempt in _running)
        {
            FailTicket(attempt.Ticket, error);
        }
    }

    private async Task ShutdownAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        // Requests still waiting for their answer are dropped at once; answers already being
        // decoded are let finish (cancelling those would break the connection), within a grace period.
        foreach (var attempt in _running)
        {
            if (!attempt.HasBegun)
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

    private static void Cancel(FetchAttempt attempt)
    {
        if (!attempt.CancelRequested)
        {
            attempt.CancelRequested = true;
            attempt.Cancellation.Cancel();
        }
    }
}
