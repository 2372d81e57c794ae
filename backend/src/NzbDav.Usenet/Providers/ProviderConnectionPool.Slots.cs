using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Slots, waiters and hand-offs. Methods named *Locked run under _gate.
public sealed partial class ProviderConnectionPool
{
    // True when the caller got an idle session (idle) or a slot to open one in (idle == null). A
    // stale idle session found on the way is handed back for closing; its slot becomes the caller's.
    private bool TryGrabLocked(out INntpConnection? idle, out INntpConnection? stale)
    {
        idle = stale = null;
        if (_idle.TryDequeue(out var entry))
        {
            if (IsFresh(entry))
            {
                idle = entry.Connection;
                _inUse++;
            }
            else
            {
                stale = entry.Connection;
            }

            return true;
        }

        return TryReserveSlot();
    }

    // The open count also changes outside the gate when the pool is disposed and is read by stats
    // without it, so it only ever grows by compare-and-swap against the cap.
    private bool TryReserveSlot()
    {
        while (true)
        {
            var open = Volatile.Read(ref _open);
            if (open >= Provider.MaxConnections)
            {
                return false;
            }

            if (Interlocked.CompareExchange(ref _open, open + 1, open) == open)
            {
                _peakOpen = Math.Max(_peakOpen, open + 1);
                return true;
            }
        }
    }

    private PoolWaiter EnqueueLocked(CancellationToken cancellationToken)
    {
        var waiter = new PoolWaiter(this);
        waiter.Node = _waiters.AddLast(waiter);

        // If the token is already cancelled the callback runs right here (the gate is re-entrant).
        waiter.Registration = cancellationToken.UnsafeRegister(
            static (state, token) => ((PoolWaiter)state!).Owner.Abandon((PoolWaiter)state!, timedOut: false, token), waiter);
        waiter.Timeout = _time.CreateTimer(
            static state => ((PoolWaiter)state!).Owner.Abandon((PoolWaiter)state!, timedOut: true, CancellationToken.None),
            waiter, Provider.OperationTimeout, Timeout.InfiniteTimeSpan);
        return waiter;
    }

    private void Abandon(PoolWaiter waiter, bool timedOut, CancellationToken token)
    {
        lock (_gate)
        {
            if (waiter.Node?.List is null)
            {
                return; // already handed something: WaitAsync passes it on
            }

            _waiters.Remove(waiter.Node);
        }

        if (timedOut)
        {
            waiter.TrySetException(new ConnectionPoolTimeoutException(Provider.Name, Provider.MaxConnections, Provider.OperationTimeout));
        }
        else
        {
            waiter.TrySetCanceled(token);
        }
    }

    private async ValueTask<ConnectionLease> WaitAsync(PoolWaiter waiter, CancellationToken cancellationToken)
    {
        INntpConnection? granted;
        try
        {
            granted = await waiter.Task.ConfigureAwait(false);
        }
        finally
        {
            waiter.Registration.Dispose();
            waiter.Timeout?.Dispose();
        }

        if (cancellationToken.IsCancellationRequested)
        {
            // Handed a session or slot at the moment the caller gave up: it goes to the next waiter.
            if (granted is not null)
            {
                await ReturnAsync(granted).ConfigureAwait(false);
            }
            else
            {
                ReleaseSlot();
            }

            cancellationToken.ThrowIfCancellationRequested();
        }

        return granted is not null
            ? new ConnectionLease(this, granted)
            : await OpenAsync(null, waitWhileFull: true, cancellationToken).ConfigureAwait(false);
    }

    // A slot came free: it passes to the first waiter (who opens a session in it) or is given up,
    // also when the cap was lowered below the sessions still open. With closing, the slot was a
    // session whose close just completed and that is still counted in _closing.
    private void ReleaseSlot(bool closing = false)
    {
        TaskCompletionSource? drained = null;
        lock (_gate)
        {
            // Sessions that stay open once this slot is handed on, those closing aside.
            var kept = Volatile.Read(ref _open) - _closing + (closing ? 1 : 0);
            if (!_disposed && !_retired && kept <= Provider.MaxConnections && _waiters.First is { } node)
            {
                _waiters.RemoveFirst();
                node.Value.TrySetResult(null);
                return;
            }

            if (Interlocked.Decrement(ref _open) == 0 && _retired)
            {
                drained = _drained;
            }
        }

        drained?.TrySetResult();
    }

    private void ThrowIfClosedLocked()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_retired)
        {
            throw new ProviderRetiredException(Provider.Name);
        }
    }
}
