using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Streaming;

// Leases: taken as demand grows (one step ahead of it), returned when idle, broken when in doubt.
internal sealed partial class SegmentFetchScheduler
{
    private void ManageWorkers(long now)
    {
        var idleTicks = Ticks(_options.WorkerIdleTimeout);
        var active = 0;
        var acquiring = false;
        for (var i = _workers.Count - 1; i >= 0; i--)
        {
            var worker = _workers[i];
            switch (worker.State)
            {
                case FetchWorkerState.Acquiring:
                    acquiring = true;
                    active++;
                    break;
                case FetchWorkerState.Draining when worker.InFlight == 0:
                    Close(worker);
                    break;
                case FetchWorkerState.Ready when worker.InFlight == 0 && (!worker.Lease!.Connection.IsUsable || now - worker.IdleSince >= idleTicks):
                    Close(worker);
                    break;
                case FetchWorkerState.Ready:
                    active++;
                    if (worker.InFlight == 0)
                    {
                        WakeAt(worker.IdleSince + idleTicks);
                    }
                    break;
            }
        }
        // Lease for twice the current demand: the read-ahead doubles as the reader consumes, and a
        // new connection costs a round trip or two to open.
        var demand = _pending.Count + _running.Count;
        var desired = Math.Min(_options.ConnectionsPerStream, ((demand * 2) + _pipelineDepth - 1) / _pipelineDepth);
        if (_wantExtraLease && !acquiring && active >= desired)
        {
            desired = Math.Min(active + 1, _options.ConnectionsPerStream + 1);
        }
        _wantExtraLease = false;
        for (; active < desired; active++)
        {
            StartAcquire(now);
        }
        _closing.RemoveAll(static task => task.IsCompleted);
    }

    private void StartAcquire(long now)
    {
        var worker = new FetchWorker(now);
        _workers.Add(worker);
        worker.Acquisition = AcquireAsync(worker);
    }

    private async Task AcquireAsync(FetchWorker worker)
    {
        try
        {
            worker.Lease = await _client.AcquireAsync(OperationKind.Streaming, _stopping.Token).ConfigureAwait(false);
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
        if (worker.Lease is { } lease)
        {
            _statistics.LeaseAcquired(now - worker.AcquireStartedAt);
            worker.PipelineDepth = Math.Max(1, lease.Connection.PipelineDepth);
            _pipelineDepth = worker.PipelineDepth;
            worker.State = FetchWorkerState.Ready;
            worker.IdleSince = now;
            return;
        }
        _workers.Remove(worker);
        worker.State = FetchWorkerState.Closed;
        var error = worker.AcquireError;
        if (error is OperationCanceledException && _stopping.IsCancellationRequested)
        {
            return;
        }
        StreamingLog.LeaseFailed(_logger, error);
        if (_workers.Exists(static w => w.State is FetchWorkerState.Acquiring or FetchWorkerState.Ready))
        {
            return;
        }
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
