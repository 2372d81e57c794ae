using System.Diagnostics;

namespace NzbDav.Usenet.Fetching;

// Racing the request the reader waits on, and letting go of requests nobody wants any more.
public sealed partial class FetchGroup
{
    // ---- stragglers and withdrawn requests ----

    /// <summary>
    /// Races one request may start. A second race covers the racer itself stalling, or failing
    /// while the straggler hangs on: with one race only, the reader then waits out the stall.
    /// </summary>
    private const int MaxRacesPerRequest = 2;

    /// <summary>
    /// The request the reader waits for has been out longer than a few median fetch times, or its
    /// connection has sent nothing for a few median first-byte times: ask another connection too.
    /// Whichever answers first is used. If the newest attempt is late as well, race once more.
    /// </summary>
    private void RaceStraggler(long now)
    {
        var head = Volatile.Read(ref _head);
        if (!_options.RaceStragglers || head is null)
        {
            return;
        }
        var state = head.State;
        if (state.Races >= MaxRacesPerRequest || state.Attempts.Count == 0 || state.Settled || !head.IsWanted)
        {
            return;
        }
        // The newest attempt decides: an older one is later still.
        var current = state.Attempts[^1];
        var due = Math.Min(
            current.StartedAt + StragglerDelayTicks(),
            Math.Max(current.StartedAt, current.Worker.LastProgressAt) + SilenceDelayTicks());
        if (now < due)
        {
            WakeAt(due);
            return;
        }
        var worker = PickRacer(head, state.Attempts);
        if (worker is null)
        {
            _wantExtraLease = true;
            return;
        }
        state.Races++;
        Statistics.StragglerRaced();
        FetchLog.StragglerRaced(_logger, head.MessageId, (long)Stopwatch.GetElapsedTime(current.StartedAt, now).TotalMilliseconds);
        Start(head, worker, now);
    }

    /// <summary>A connection none of the request's attempts runs on, to a provider not ruled out, with a free pipeline slot.</summary>
    private FetchWorker? PickRacer(ArticleRequest request, List<FetchAttempt> running)
    {
        foreach (var worker in _workers)
        {
            if (worker.HasCapacity && !running.Exists(a => ReferenceEquals(a.Worker, worker)) && !IsExcluded(request, worker.ProviderName!))
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
