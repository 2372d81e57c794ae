using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Streaming;

// Leases: taken as demand grows (one step ahead of it), returned when idle, broken when in doubt.
internal sealed partial class SegmentFetchScheduler
{
    private static readonly long ContentionCheckTicks = Ticks(TimeSpan.FromMilliseconds(50));

    private void ManageWorkers(long now)
    {
        // Lease for twice the current demand, or for what the reader is expected to want soon: the
        // read-ahead doubles as the reader consumes, and a new connection costs a round trip or two
        // to open, so open them while the read-ahead is still growing. Idle leases are kept only
        // for actual demand (anticipation opens leases, it never holds idle ones); no demand, no leases.
        // While another stream waits for a permit, leases idling here go back at once instead of
        // after the idle timeout, and none are taken ahead of demand: a new playback must not wait
        // behind read-ahead that is already full.
        var contended = _client.HasWaiters(OperationKind.Streaming);
        var work = _pending.Count + _running.Count;
        var needed = Math.Min(_connectionCap, ((work * 2) + _pipelineDepth - 1) / _pipelineDepth);
        var anticipated = work == 0 || contended ? 0 : Volatile.Read(ref _anticipated);
        var desired = Math.Max(needed, Math.Min(_connectionCap, (anticipated + _pipelineDepth - 1) / _pipelineDepth));
        if (_wantExtraLease)
        {
            desired = Math.Min(Math.Max(desired, CountActive() + 1), _connectionCap + 1);
            needed = Math.Max(needed, desired);
            _wantExtraLease = false;
        }
        var active = CountActive();
        var idleTicks = Ticks(_options.WorkerIdleTimeout);
        // From the back: the newest leases go back first.
        for (var i = _workers.Count - 1; i >= 0; i--)
        {
            var worker = _workers[i];
            switch (worker.State)
            {
                case FetchWorkerState.Acquiring when active > desired && !worker.AcquireCancellation.IsCancellationRequested:
                    // Not needed any more: stop waiting for it rather than take a lease only to idle.
                    active--;
                    worker.AcquireCancellation.Cancel();
                    break;
                case FetchWorkerState.Draining when worker.InFlight == 0:
                    Close(worker);
                    break;
                case FetchWorkerState.Ready when worker.InFlight == 0 && !worker.Lease!.Connection.IsUsable:
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
            StartAcquire(now);
        }
        _closing.RemoveAll(static task => task.IsCompleted);
    }

    /// <summary>Workers holding or waiting for a lease that will take work.</summary>
    private int CountActive()
    {
        var active = 0;
        foreach (var worker in _workers)
        {
            if (worker.State == FetchWorkerState.Ready || (worker.State == FetchWorkerState.Acquiring && !worker.AcquireCancellation.IsCancellationRequested))
            {
                active++;
            }
        }
        return active;
    }

    private void StartAcquire(long now)
    {
        var worker = new FetchWorker(now, _stopping.Token);
        _workers.Add(worker);
        worker.Acquisition = AcquireAsync(worker);
    }

    private async Task AcquireAsync(FetchWorker worker)
    {
        try
        {
            worker.Lease = await _client.AcquireAsync(OperationKind.Streaming, worker.AcquireCancellation.Token).ConfigureAwait(false);
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
            _statistics.LeaseAcquired(now - worker.AcquireStartedAt);
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
        if (_workers.Exists(static w => w.State is FetchWorkerState.Acquiring or FetchWorkerState.Ready))
        {
            // Others are fetching: one more connection was simply not to be had right now.
            StreamingLog.ExtraLeaseUnavailable(_logger, error?.Message);
            return;
        }
        StreamingLog.LeaseFailed(_logger, error);
        // Nothing to fetch with: the reads waiting for these fail now (a later read tries again).
        while (_pending.TryDequeue(out var ticket, out _))
        {
            ticket.Queued = false;
            FailTicket(ticket, $"no connection could be leased: {error?.Message}", error);
        }
    }

    private void Close(FetchWorker worker)
    {
        _workers.Remove(worker);
        if (worker.State != FetchWorkerState.Acquiring)
        {
            _statistics.LeaseReleased();
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
                // It may still owe an answer we abandoned; never let the pool lend it again.
                await lease.Connection.DisposeAsync().ConfigureAwait(false);
            }
        }
        catch (Exception error)
        {
            StreamingLog.LeaseCloseFailed(_logger, lease.ProviderName, error);
        }
        finally
        {
            await lease.DisposeAsync().ConfigureAwait(false);
        }
    }
}
