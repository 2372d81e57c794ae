namespace NzbDav.Streaming;

// Handing tickets to connections: lowest segment first, straggler races, retries.
internal sealed partial class SegmentFetchScheduler
{
    private static bool NeedsFetch(SegmentTicket ticket) =>
        !ticket.IsRetired && !ticket.IsCompleted && ticket.Failure is null && ticket.Attempts.Count == 0;

    private void Enqueue(SegmentTicket ticket)
    {
        if (!ticket.Queued && NeedsFetch(ticket))
        {
            ticket.Queued = true;
            _pending.Enqueue(ticket, ticket.Index);
        }
    }

    private void Dispatch(long now)
    {
        while (_pending.TryPeek(out var ticket, out _))
        {
            if (!NeedsFetch(ticket))
            {
                _pending.Dequeue();
                ticket.Queued = false;
                continue;
            }
            var worker = PickWorker(ticket.Avoid);
            if (worker is null)
            {
                // The reader is blocked on this one: worth a connection beyond the usual count.
                _wantExtraLease |= ReferenceEquals(ticket, Volatile.Read(ref _head));
                return;
            }
            _pending.Dequeue();
            ticket.Queued = false;
            // After two failed tries on the usual provider, ask the others (when there are any).
            Start(ticket, worker, viaOtherProviders: _hasOtherProviders && ticket.FailedAttempts >= 2, isRace: false, now);
        }
    }

    /// <summary>The first connection (in a stable order) with a free pipeline slot: packing work keeps spare connections idle, so they go back to the pool.</summary>
    private FetchWorker? PickWorker(FetchWorker? avoid)
    {
        FetchWorker? fallback = null;
        foreach (var worker in _workers)
        {
            if (!worker.HasCapacity)
            {
                continue;
            }
            if (ReferenceEquals(worker, avoid))
            {
                fallback ??= worker;
                continue;
            }
            return worker;
        }
        return fallback;
    }

    private void Start(SegmentTicket ticket, FetchWorker worker, bool viaOtherProviders, bool isRace, long now)
    {
        var attempt = new FetchAttempt(ticket, worker, viaOtherProviders, isRace, now);
        ticket.Attempts.Add(attempt);
        _running.Add(attempt);
        worker.InFlight++;
        attempt.Task = RunAttemptAsync(attempt);
    }

    /// <summary>
    /// The segment the reader waits for has been out longer than a few median fetch times: ask
    /// another connection for it too. Whichever answers first is used.
    /// </summary>
    private void RaceStraggler(long now)
    {
        var head = Volatile.Read(ref _head);
        if (head is null || head.Raced || head.Attempts.Count != 1 || head.IsRetired || head.IsCompleted || head.Failure is not null)
        {
            return;
        }
        var current = head.Attempts[0];
        var due = current.StartedAt + StragglerDelayTicks();
        if (now < due)
        {
            WakeAt(due);
            return;
        }
        var worker = PickWorker(current.Worker);
        if (worker is null || ReferenceEquals(worker, current.Worker))
        {
            _wantExtraLease = true;
            return;
        }
        head.Raced = true;
        _statistics.StragglerRaced();
        StreamingLog.StragglerRaced(_logger, head.Number, head.MessageId, (long)System.Diagnostics.Stopwatch.GetElapsedTime(current.StartedAt, now).TotalMilliseconds);
        Start(head, worker, viaOtherProviders: false, isRace: true, now);
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

    /// <summary>The ticket left the window: requests still waiting for their answer are dropped.</summary>
    private static void OnWithdrawn(SegmentTicket ticket)
    {
        foreach (var attempt in ticket.Attempts)
        {
            if (!attempt.HasBegun)
            {
                Cancel(attempt);
            }
        }
    }

    /// <summary>
    /// A race was won; the other attempt lost. If its answer has not started, its connection is
    /// stuck behind it: drop the request and close that connection once idle (returning it to the
    /// pool would hand the stall to someone else). If it is already receiving, let it finish
    /// (cancelling would break the connection and everything pipelined on it) but give it no more work.
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
}
