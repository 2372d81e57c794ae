using System.Diagnostics;

namespace NzbDav.Usenet.Fetching;

// Racing the request the reader waits on, and letting go of requests nobody wants any more.
public sealed partial class FetchGroup
{
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
}
