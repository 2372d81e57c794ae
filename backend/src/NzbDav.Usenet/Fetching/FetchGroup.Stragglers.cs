using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

// Racing the request the reader waits on, and letting go of requests nobody wants any more.
public sealed partial class FetchGroup
{
    // ---- stragglers and withdrawn requests ----

    /// <summary>
    /// Races one request may start. More than one covers the racer itself stalling, or failing
    /// while the straggler hangs on: with one race only, the reader then waits out the stall. The
    /// soak (5 % of commands stalling 10 s) saw two racers of one article stall in turn.
    /// </summary>
    private const int MaxRacesPerRequest = 3;

    /// <summary>
    /// The longest a reader's request waits on its newest attempt before it is raced, however slow
    /// the median fetch is: delays scaled by the median grow under load (two busy cores put it near a
    /// second), and a player must not wait out two of them in a row.
    /// </summary>
    private static readonly TimeSpan MaximumRaceDelay = TimeSpan.FromMilliseconds(600);

    /// <summary>Requests of other streams' readers (expedited while already running) watched and raced like the head.</summary>
    private const int MaxWaitedWatched = 8;

    /// <summary>Backup sessions one group may hold at once just for races.</summary>
    private const int MaxRaceLeases = 2;

    /// <summary>A reader blocked this long on one article is logged (once per article) with what was tried.</summary>
    private static readonly TimeSpan SlowRead = TimeSpan.FromSeconds(2);

    /// <summary>
    /// How long a race waits for the backup session it asked for before it runs on one of the
    /// group's own connections with a free slot instead: a session that is slow to come (its slot
    /// recycled only once the old session closed, a connect behind others) must not hold a reader
    /// for seconds when a pipelined racer is at hand (CI soak: 5.9 s waiting for one).
    /// </summary>
    private static readonly TimeSpan RaceLeaseWait = TimeSpan.FromMilliseconds(300);

    /// <summary>After no backup session was free, how long before asking again (each ask wakes the loop).</summary>
    private static readonly TimeSpan RaceLeaseRetry = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Every request a reader is blocked on: this stream's head, and requests other streams' readers
    /// wait on (they share this group's fetch and expedited it while it ran). Each is raced when late.
    /// </summary>
    private void RaceStraggler(long now)
    {
        var head = Volatile.Read(ref _head);
        if (head is not null)
        {
            Race(head, now);
        }
        for (var i = _waited.Count - 1; i >= 0; i--)
        {
            var request = _waited[i];
            if (request.State.Settled || !request.IsWanted)
            {
                _waited.RemoveAt(i);
            }
            else if (!ReferenceEquals(request, head))
            {
                Race(request, now);
            }
        }
    }

    /// <summary>Another stream's reader waits on a request this group fetches: it is watched like the head.</summary>
    private void WatchWaited(ArticleRequest request)
    {
        if (!request.State.Settled && _waited.Count < MaxWaitedWatched && !_waited.Contains(request))
        {
            _waited.Add(request);
        }
    }

    /// <summary>
    /// The request has been out longer than a few median fetch times, or its connection has sent
    /// nothing for a few median first-byte times: ask another connection too, whichever answers first
    /// is used; if the newest attempt is late as well, race once more. A request still queued (no
    /// connection of the group was free) is started on a racer once it is as late. The racer is a
    /// connection none of its attempts uses and that is not itself silent; when the group has none,
    /// a backup session is taken for the race (<see cref="UsenetClient.TryLeaseRacerAsync"/>).
    /// </summary>
    private void Race(ArticleRequest request, long now)
    {
        var state = request.State;
        if (state.Settled || !request.IsWanted)
        {
            return;
        }
        if (state.WaitedSince == 0)
        {
            state.WaitedSince = now;
        }
        WatchSlowRead(request, now);
        UpdateBlockAllowed(request, now);
        FetchWaitedOnBlock(request, now);
        // Once the usual races are spent, one more may run, but only on a backup session: the
        // primary has had the article stall on it again and again (the 10-minute soak: three races
        // on primary connections, all stalled, while the backup's sessions were busy).
        var lastRace = state.Races >= MaxRacesPerRequest;
        if (!_options.RaceStragglers || state.Races > MaxRacesPerRequest || (lastRace && !_client.HasBackups))
        {
            state.CheckedRace(now, "no more races");
            return;
        }
        long due;
        long since;
        if (state.Attempts.Count == 0)
        {
            if (!state.Queued)
            {
                state.CheckedRace(now, "neither running nor queued");
                return;
            }
            since = state.WaitedSince;
            due = since + Math.Min(StragglerDelayTicks(), _maximumRaceDelayTicks);
        }
        else
        {
            // The newest attempt decides: an older one is later still.
            var current = state.Attempts[^1];
            since = current.StartedAt;
            var silentDue = Math.Max(current.StartedAt, current.Worker.LastProgressAt) + SilenceDelayTicks();
            // Under a bandwidth cap that binds, answers are slow by our own pacing: only silence
            // means a stall. A race then would only fetch the article twice under the same cap, and
            // the loser's connection, broken, would throw away what was already on its way.
            due = _client.Bandwidth?.IsBinding == true
                ? silentDue
                : Math.Min(current.StartedAt + Math.Min(StragglerDelayTicks(), _maximumRaceDelayTicks), silentDue);
        }
        if (now < due)
        {
            state.CheckedRace(now, "not due yet");
            WakeAt(due);
            return;
        }
        var worker = PickRacer(request, state.Attempts, now, racersOnly: lastRace);
        if (lastRace && worker is null)
        {
            // However long it takes to come: the primary's connections have had their turns.
            var (_, note) = RequestRaceLease(request, now);
            state.RacerNote = note;
            state.CheckedRace(now, "waiting for a backup session for the last race");
            WakeAt(now + _raceLeaseRetryTicks);
            return;
        }
        if (worker is null || (!worker.IsRacer && (worker.InFlight > 0 || state.Races > 0)))
        {
            // A racer pipelined behind other answers is late by their transfer too, and a second
            // race on the provider that stalled twice may well stall again: a backup session of its
            // own serves the race at once, when one is free. But the race waits for one at most
            // RaceLeaseWait when a connection of the group could run it: however the asks
            // go (granted to another request's race, refused, slow to connect), this bounds it.
            if (state.RaceLeaseWaitSince == 0)
            {
                state.RaceLeaseWaitSince = now;
            }
            if (worker is null || now - state.RaceLeaseWaitSince < _raceLeaseWaitTicks)
            {
                var (asked, note) = RequestRaceLease(request, now);
                state.RacerNote = note;
                state.CheckedRace(now, worker is null ? "no connection to race on" : "waiting for a backup session");
                if (asked || worker is null)
                {
                    _wantExtraLease |= worker is null;
                    // Nothing else may wake the loop (every connection of the group stalled): look again.
                    WakeAt(worker is null ? now + _raceLeaseRetryTicks : Math.Min(now + _raceLeaseRetryTicks, state.RaceLeaseWaitSince + _raceLeaseWaitTicks));
                    return;
                }
            }
        }
        state.RaceLeaseWaitSince = 0;
        state.Races++;
        state.CheckedRace(now, "raced");
        state.RacerNote = worker.IsRacer ? $"raced on a backup session of {worker.ProviderName}" : $"raced on another connection to {worker.ProviderName}";
        Statistics.StragglerRaced();
        FetchLog.StragglerRaced(_logger, request.MessageId, (long)_time.GetElapsedTime(since, now).TotalMilliseconds);
        Start(request, worker, now);
        // The racer may stall too; nothing else may wake the loop before its own race is due.
        WakeAt(now + Math.Min(StragglerDelayTicks(), _maximumRaceDelayTicks));
    }

    /// <summary>
    /// A connection none of the request's attempts runs on, to a provider not ruled out, with a free
    /// pipeline slot: an idle one first, then a race session, then the least loaded; never one whose
    /// requests have gone silent (a stalled connection would only stall the racer too).
    /// </summary>
    private FetchWorker? PickRacer(ArticleRequest request, List<FetchAttempt> running, long now, bool racersOnly = false)
    {
        FetchWorker? best = null;
        var bestRank = int.MaxValue;
        var silence = SilenceDelayTicks();
        foreach (var worker in _workers)
        {
            if (!worker.HasCapacity || (racersOnly && !worker.IsRacer) || running.Exists(a => ReferenceEquals(a.Worker, worker)) || IsExcluded(request, worker))
            {
                continue;
            }
            if (worker.InFlight > 0 && now - Math.Max(worker.LastProgressAt, worker.IdleSince) > silence)
            {
                continue;
            }
            var rank = worker.InFlight == 0 ? 0 : worker.IsRacer ? 1 : 1 + worker.InFlight;
            if (rank < bestRank)
            {
                best = worker;
                bestRank = rank;
            }
        }
        return best;
    }

    /// <summary>
    /// Asks for a backup session to race on, unless the group holds enough or none was free just
    /// now; true while one is on its way (the race waits for it), with what happened.
    /// </summary>
    private (bool Asked, string Note) RequestRaceLease(ArticleRequest request, long now)
    {
        if (!_client.HasBackups)
        {
            return (false, "none: no free connection in the group and no backup provider");
        }
        var racers = 0;
        foreach (var worker in _workers)
        {
            if (worker.IsRacer)
            {
                if (worker.State == FetchWorkerState.Acquiring)
                {
                    if (now - worker.AcquireStartedAt < _raceLeaseWaitTicks)
                    {
                        WakeAt(worker.AcquireStartedAt + _raceLeaseWaitTicks);
                        return (true, "none yet: a backup session is being taken");
                    }
                    return (false, $"none: the backup session asked for {(long)_time.GetElapsedTime(worker.AcquireStartedAt, now).TotalMilliseconds} ms ago has not come");
                }
                racers++;
            }
        }
        if (racers >= MaxRaceLeases)
        {
            return (false, "none: the group's race sessions are busy");
        }
        if (now < _nextRaceLeaseAt)
        {
            WakeAt(_nextRaceLeaseAt);
            return (false, "none: no backup session was free");
        }
        var racer = new FetchWorker(_time, now, Excluded(request), _stopping.Token, isRacer: true);
        _workers.Add(racer);
        // One ask per retry interval for the whole group: a session granted and then taken by
        // another request's race must not have every pass ask again.
        _nextRaceLeaseAt = now + _raceLeaseRetryTicks;
        racer.Acquisition = AcquireRacerAsync(racer);
        return (true, "none yet: asked for a backup session");
    }

    private async Task AcquireRacerAsync(FetchWorker worker)
    {
        try
        {
            worker.Lease = await _client.LeaseRacerForAsync(worker.Avoid, _options.Account, this, worker.AcquireCancellation.Token).ConfigureAwait(false);
        }
        catch (Exception error)
        {
            worker.AcquireError = error;
        }
        _acquired.Enqueue(worker);
        _signal.Set();
    }

    /// <summary>Logs, once per request, a reader blocked on it for longer than <see cref="SlowRead"/>, with what was tried.</summary>
    private void WatchSlowRead(ArticleRequest request, long now)
    {
        var state = request.State;
        if (state.SlowLogged)
        {
            return;
        }
        if (now - state.WaitedSince < _slowReadTicks)
        {
            WakeAt(state.WaitedSince + _slowReadTicks);
            return;
        }
        state.SlowLogged = true;
        if (!_logger.IsEnabled(Microsoft.Extensions.Logging.LogLevel.Warning))
        {
            return;
        }
        var attempts = string.Join("; ", state.Attempts.Select(a =>
            $"{a.Worker.ProviderName}{(a.Worker.IsRacer ? " (race session)" : "")} {(long)_time.GetElapsedTime(a.StartedAt, now).TotalMilliseconds} ms, "
            + $"{(a.HasBegun ? "answering" : "no answer yet")}, {a.Worker.InFlight} in flight on it, silent {(a.Worker.LastProgressAt == 0 ? "always" : (long)_time.GetElapsedTime(a.Worker.LastProgressAt, now).TotalMilliseconds + " ms")}"));
        var failures = state.Failures is { } list ? " / failed on " + string.Join(", ", list.Select(f => f.ProviderName)) : "";
        var missing = state.MissingOn is { } on ? " / 430 on " + string.Join(", ", on) : "";
        var free = 0;
        foreach (var worker in _workers)
        {
            free += worker.HasCapacity ? 1 : 0;
        }
        FetchLog.SlowRead(_logger, request.MessageId, (long)_time.GetElapsedTime(state.WaitedSince, now).TotalMilliseconds,
            attempts + failures + missing, state.Races, state.FailedAttempts, (state.RacerNote ?? "not due yet") + RaceLeaseRefusals(), _workers.Count, free);
    }

    private string RaceLeaseRefusals()
    {
        if (_lastRaceLeaseRefusal is not { } last)
        {
            return "";
        }
        var pool = last.Pool;
        return $"; backup sessions refused {_raceLeaseRefusals} time(s) in this group, the last with {last.Name} at {pool.Open}/{pool.MaxConnections} open, "
            + $"{pool.InUse} in use, {pool.Idle} idle, {pool.Connecting} connecting, {pool.Closing} closing, {pool.Waiters} waiting, breaker {last.Circuit}";
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
