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
            var worker = PickWorker(ticket, out var viaOthers);
            if (worker is null)
            {
                // The reader is blocked on this one: worth a connection beyond the usual count.
                _wantExtraLease |= ReferenceEquals(ticket, Volatile.Read(ref _head));
                return;
            }
            _pending.Dequeue();
            ticket.Queued = false;
            Start(ticket, worker, viaOthers, now);
        }
    }

    /// <summary>
    /// The least loaded connection with a free pipeline slot (the first such, in a stable order).
    /// For a retry: prefer a provider not yet ruled out and not the connection that failed last;
    /// when only connections to ruled-out providers are free (and no other provider's connection
    /// will free up), ask the other providers through one of them.
    /// </summary>
    private FetchWorker? PickWorker(SegmentTicket ticket, out bool viaOthers)
    {
        viaOthers = false;
        var bad = ticket.BadProviders;
        FetchWorker? best = null;
        var bestRank = int.MaxValue;
        var goodProviderBusy = false;
        foreach (var worker in _workers)
        {
            var isBad = bad?.Contains(worker.Lease?.ProviderName ?? "") == true;
            if (!worker.HasCapacity)
            {
                goodProviderBusy |= !isBad && worker.State == FetchWorkerState.Ready;
                continue;
            }
            // Least loaded first: requests spread over connections transfer in parallel rather
            // than one after another on a single connection.
            var rank = (((isBad ? 2 : 0) + (ReferenceEquals(worker, ticket.Avoid) ? 1 : 0)) * 1024) + worker.InFlight;
            if (rank < bestRank)
            {
                best = worker;
                bestRank = rank;
            }
        }
        if (best is null || bestRank < 2 * 1024)
        {
            return best;
        }
        if (AllBad(ticket))
        {
            return best; // nobody is left to ask instead: try again where we are
        }
        if (goodProviderBusy || _workers.Exists(static w => w.State == FetchWorkerState.Acquiring))
        {
            // A connection to another provider will free up (or is being leased, provider not yet
            // known): wait for it rather than queue in that provider's pool behind our own leases.
            return null;
        }
        viaOthers = true;
        return best;
    }

    private void Start(SegmentTicket ticket, FetchWorker worker, bool viaOtherProviders, long now)
    {
        var attempt = new FetchAttempt(ticket, worker, viaOtherProviders, now);
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
        // Late by either measure: out much longer than fetches usually take, or its connection has
        // sent nothing at all (a stalled connection) for a couple of round trips.
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
        head.Raced = true;
        _statistics.StragglerRaced();
        StreamingLog.StragglerRaced(_logger, head.Number, head.MessageId, (long)System.Diagnostics.Stopwatch.GetElapsedTime(current.StartedAt, now).TotalMilliseconds);
        Start(head, worker, viaOtherProviders: false, now);
    }

    /// <summary>A connection other than the straggler's, to a provider not ruled out for the ticket, with a free pipeline slot.</summary>
    private FetchWorker? PickRacer(SegmentTicket ticket, FetchWorker straggler)
    {
        foreach (var worker in _workers)
        {
            if (worker.HasCapacity && !ReferenceEquals(worker, straggler) && ticket.BadProviders?.Contains(worker.Lease!.ProviderName) != true)
            {
                return worker;
            }
        }
        return null;
    }

    /// <summary>How long a connection owing us answers may stay silent: a few median times to first byte, never less than the minimum.</summary>
    private long SilenceDelayTicks()
    {
        var minimum = Ticks(_options.MinimumStragglerDelay);
        return _timings.Count < 3 ? Math.Max(minimum, Ticks(TimeSpan.FromSeconds(1))) : Math.Max(minimum, (long)(_timings.MedianFirstByteTicks * _options.StragglerFactor));
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
