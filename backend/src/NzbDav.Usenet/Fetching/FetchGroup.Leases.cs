using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

// Connections: taken as demand grows, returned when idle, broken when in doubt.
public sealed partial class FetchGroup
{
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
        var contended = _client.HasWaitersBesides(_options.Kind, this);
        // The lease a blocked reader asked for beyond the share is kept while it is still wanted:
        // yielding it would only have it asked for again in the next pass, round and round (each
        // turn a cancelled permit wait, and a pass woken by it).
        var extra = _wantExtraLease ? 1 : 0;
        if (_options.YieldToOtherKinds && OtherKindWaits())
        {
            cap = Math.Min(cap, _client.Limiter.Options.GuaranteeOf(_options.Kind));
            YieldLeasesAbove(cap + extra);
            // Nobody wakes a group that gave its leases back: look again for the waiters to be served.
            WakeAt(now + _contentionCheckTicks);
        }
        if (contended && _options.ShareWhenContended)
        {
            var share = Math.Max(1, _client.PrimaryCapacity / Math.Max(1, _client.BusyGroups(_options.Kind)));
            if (cap > share)
            {
                cap = share;
                YieldLeasesAbove(cap + extra);
            }
        }
        var work = _pending.Count + _running.Count;
        var uncapped = (int)Math.Ceiling(work * _options.DemandFactor / _pipelineDepth);
        // What the providers' capacity (on a cluster node: its leases) keeps from this group, so the
        // node can ask the cluster for it: its own waiters alone never show more than the capacity.
        ReportShortfall(Math.Max(0, Math.Min(uncapped, _options.ConnectionCap) - ConnectionCap()));
        var needed = Math.Min(cap, uncapped);
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
        // The next request waits for a lease that avoids providers it ruled out. If the group holds
        // every permit its pool may have, that lease can only come from one of its own: give back
        // an idle one that cannot serve the request (one per pass is enough to let it through).
        var giveBackOne = HeadNeedsAvoiding() && AvoidingAcquisitionWaits();
        // From the back: the newest leases go back first.
        for (var i = _workers.Count - 1; i >= 0; i--)
        {
            var worker = _workers[i];
            switch (worker.State)
            {
                case FetchWorkerState.Ready when worker.IsBlock && worker.InFlight == 0 && (!worker.Lease!.Connection.IsUsable || worker.Lease.IsRetired || !BlockWorkWaits(worker)):
                    // Nothing only a block account may serve waits: its session goes back at once.
                    Close(worker);
                    break;
                case FetchWorkerState.Acquiring or FetchWorkerState.Ready when worker.IsBlock:
                    break;
                case FetchWorkerState.Ready when worker.IsRacer && worker.InFlight == 0:
                    // Its race is over: the backup session goes back at once.
                    Close(worker);
                    break;
                case FetchWorkerState.Acquiring or FetchWorkerState.Ready when worker.IsRacer:
                    break;
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
                case FetchWorkerState.Ready when giveBackOne && worker.InFlight == 0 && _pending.TryPeek(out var head, out _) && IsExcluded(head, worker):
                    giveBackOne = false;
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
                        WakeAt(Math.Min(worker.IdleSince + idleTicks, now + _contentionCheckTicks));
                    }
                    break;
            }
        }
        // While the next request has ruled providers out, a plain lease may land on one of them, be
        // closed as useless and be taken again, round and round, while the lease that avoids them is
        // never asked for: only that one helps now.
        if (HeadNeedsAvoiding())
        {
            desired = Math.Min(desired, active);
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
        ManageBlockLease(now);
        _closing.RemoveAll(static task => task.IsCompleted);
        CountBusy(_workers.Count > 0);
    }

    /// <summary>Tells the client how many more sessions this group would use than the capacity lets it have (0 when done).</summary>
    private void ReportShortfall(int shortfall)
    {
        if (shortfall != _reportedShortfall)
        {
            _client.GroupShortfall(_options.Kind, shortfall - _reportedShortfall);
            _reportedShortfall = shortfall;
        }
    }

    /// <summary>Tells the client whether this group holds or waits for leases (how the pool's fair share is counted).</summary>
    private void CountBusy(bool busy)
    {
        if (busy != _countedBusy)
        {
            _countedBusy = busy;
            _client.GroupBusy(_options.Kind, busy ? 1 : -1);
        }
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
        foreach (var (request, _) in _pending.UnorderedItems)
        {
            if (NeedsFetch(request) && !IsExcluded(request, worker))
            {
                return false;
            }
        }
        return true;
    }

    private bool HeadNeedsAvoiding()
    {
        while (_pending.TryPeek(out var head, out _))
        {
            if (NeedsFetch(head))
            {
                // Most passes: a head no provider has failed yet, answered without allocating.
                if (head.State.MissingOn is not { Count: > 0 } && head.State.Failures is null)
                {
                    return false;
                }
                foreach (var name in _client.RegularProviderNames)
                {
                    if (IsExcluded(head, name))
                    {
                        return true;
                    }
                }
                return false;
            }
            _pending.Dequeue();
            head.State.Queued = false;
        }
        return false;
    }

    private bool AvoidingAcquisitionWaits() =>
        _wantAvoiding is not null
        || _workers.Exists(static w => w.State == FetchWorkerState.Acquiring && !w.IsRacer && !w.IsBlock && w.Avoid is not null && !w.AcquireCancellation.IsCancellationRequested);

    private bool OtherKindWaits()
    {
        foreach (var kind in (ReadOnlySpan<OperationKind>)[OperationKind.Streaming, OperationKind.Queue, OperationKind.HealthCheck])
        {
            if (kind != _options.Kind && _client.HasWaiters(kind))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Leases beyond <paramref name="cap"/> stop taking work (the newest first) and close once their answers are in.</summary>
    private void YieldLeasesAbove(int cap)
    {
        var active = CountActive();
        for (var i = _workers.Count - 1; i >= 0 && active > cap; i--)
        {
            var worker = _workers[i];
            if (worker.IsRacer || worker.IsBlock)
            {
                continue;
            }
            if (worker.State == FetchWorkerState.Ready)
            {
                worker.State = FetchWorkerState.Draining;
                active--;
            }
            else if (worker.State == FetchWorkerState.Acquiring && worker.Avoid is null && !worker.AcquireCancellation.IsCancellationRequested)
            {
                worker.AcquireCancellation.Cancel();
                active--;
            }
        }
    }

    /// <summary>Workers holding or waiting for a lease that will take work (avoiding acquisitions aside).</summary>
    private int CountActive()
    {
        var active = 0;
        foreach (var worker in _workers)
        {
            if (worker.IsRacer || worker.IsBlock)
            {
                continue;
            }
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
        var worker = new FetchWorker(_time, now, avoid, _stopping.Token);
        _workers.Add(worker);
        worker.Acquisition = AcquireAsync(worker);
    }

    private async Task AcquireAsync(FetchWorker worker)
    {
        try
        {
            worker.Lease = await _client.AcquireAsync(_options.Kind, worker.Avoid, this, _options.Account, worker.AcquireCancellation.Token).ConfigureAwait(false);
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
            Statistics.LeaseAcquired(_time.GetElapsedTime(worker.AcquireStartedAt, now));
            worker.PipelineDepth = Math.Max(1, lease.Connection.PipelineDepth);
            if (worker.IsRacer || worker.IsBlock)
            {
                worker.State = FetchWorkerState.Ready;
                worker.IdleSince = now;
                return;
            }
            _pipelineDepth = worker.PipelineDepth;
            worker.State = FetchWorkerState.Ready;
            // Granted just as it was called off: idle since forever, so it goes back unless needed.
            worker.IdleSince = withdrawn ? 0 : now;
            return;
        }
        _workers.Remove(worker);
        worker.State = FetchWorkerState.Closed;
        var error = worker.AcquireError;
        if (worker.IsBlock)
        {
            FailWaitingForBlock(error, now);
            return;
        }
        if (worker.IsRacer)
        {
            // No backup session was free: the race waits for a connection of the group, or a later ask.
            _nextRaceLeaseAt = now + _raceLeaseRetryTicks;
            _raceLeaseRefusals++;
            _lastRaceLeaseRefusal = _client.BackupSnapshot();
            if (error is not null and not OperationCanceledException)
            {
                FetchLog.ExtraLeaseUnavailable(_logger, error.Message);
            }
            return;
        }
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
        ChargeWaiting(failed, request => Excluded(request) is { Count: > 0 } excluded && Covers(avoid, excluded) && !HasGoodWorker(request));
    }

    /// <summary>
    /// Each waiting request <paramref name="charged"/> picks counts a failed try, with
    /// <paramref name="failed"/> as the reasons, and is given up once it has had its tries or nobody
    /// is left to ask; the rest wait on.
    /// </summary>
    private void ChargeWaiting(List<ProviderFailure> failed, Func<ArticleRequest, bool> charged)
    {
        var waiting = new List<ArticleRequest>();
        while (_pending.TryDequeue(out var request, out _))
        {
            request.State.Queued = false;
            waiting.Add(request);
        }
        foreach (var request in waiting)
        {
            var state = request.State;
            if (NeedsFetch(request) && charged(request))
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
        _workers.Exists(w => w.State == FetchWorkerState.Ready && !w.IsRacer && !IsExcluded(request, w));

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
}
