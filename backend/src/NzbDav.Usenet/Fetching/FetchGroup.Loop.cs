namespace NzbDav.Usenet.Fetching;

// The loop's timer, its own failure, and shutdown.
public sealed partial class FetchGroup
{
    // ---- the loop's timer, failure and shutdown ----

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
        var delay = _time.GetElapsedTime(now, _nextWakeAt);
        _timer.Change(delay < TimeSpan.FromMilliseconds(1) ? TimeSpan.FromMilliseconds(1) : delay, Timeout.InfiniteTimeSpan);
    }

    private void FailEverything(Exception error)
    {
        var wrapped = new InvalidOperationException($"The fetch group failed: {error.Message}", error);
        while (_submitted.TryDequeue(out var submitted))
        {
            Settle(submitted, wrapped);
        }
        while (_pending.TryDequeue(out var pending, out _))
        {
            Settle(pending, wrapped);
        }
        foreach (var attempt in _running)
        {
            Settle(attempt.Request, wrapped);
        }
    }

    private async Task ShutdownAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        // Requests still waiting for their answer are dropped at once; answers already being
        // decoded are let finish (cancelling those would break the connection), within a grace period.
        var abort = Volatile.Read(ref _abort) != 0;
        foreach (var attempt in _running)
        {
            if (abort || !attempt.HasBegun)
            {
                Cancel(attempt);
            }
        }
        var attempts = Task.WhenAll(_running.Select(a => a.Task));
        try
        {
            await attempts.WaitAsync(ShutdownGrace, _time).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            foreach (var attempt in _running)
            {
                Cancel(attempt);
            }
            await attempts.ConfigureAwait(false);
        }
        // Answers that arrived in the grace period still count; everything else is cancelled.
        while (_finished.TryDequeue(out var finished))
        {
            if (finished.Outcome == FetchOutcome.Succeeded && !finished.Request.State.Settled)
            {
                finished.Request.State.Settled = true;
                finished.Request.OnFound(finished.Header);
            }
        }
        CancelUnanswered();
        Volatile.Write(ref _stopped, 1);
        CancelSubmittedAfterStop();
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
        CountBusy(false);
        ReportShortfall(0);
        await Task.WhenAll(_closing).ConfigureAwait(false);
        await _timer.DisposeAsync().ConfigureAwait(false);
        foreach (var attempt in _running)
        {
            attempt.Cancellation.Dispose();
        }
        _stopping.Dispose();
    }

    private void CancelUnanswered()
    {
        while (_submitted.TryDequeue(out var submitted))
        {
            Enqueue(submitted);
        }
        while (_pending.TryDequeue(out var request, out _))
        {
            request.State.Queued = false;
            CancelRequest(request);
        }
        foreach (var attempt in _running)
        {
            CancelRequest(attempt.Request);
        }
    }

    private void CancelSubmittedAfterStop()
    {
        while (_submitted.TryDequeue(out var request))
        {
            CancelRequest(request);
        }
    }

    private static void CancelRequest(ArticleRequest request)
    {
        if (!request.State.Settled)
        {
            request.State.Settled = true;
            request.OnCancelled();
        }
    }
}
