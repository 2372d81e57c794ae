using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Opening a session in a slot the caller owns, including the wait when the provider is full.
public sealed partial class ProviderConnectionPool
{
    private static readonly TimeSpan FirstFullRetryDelay = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan MaxFullRetryDelay = TimeSpan.FromSeconds(1);

    // The caller owns one slot. On failure the slot is released (waking one waiter), or, when the
    // caller gave up while a socket was still open in it, once that socket is done (see below).
    private async ValueTask<ConnectionLease> OpenAsync(INntpConnection? stale, bool waitWhileFull, CancellationToken cancellationToken)
    {
        if (stale is not null)
        {
            // The slot is reused only once the provider has let go of the old session.
            var closing = CloseTrackedAsync(stale, releaseSlot: false);
            try
            {
                await closing.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                _ = closing.ContinueWith(static (_, pool) => ((ProviderConnectionPool)pool!).ReleaseSlot(), this,
                    CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                throw;
            }
        }

        var connection = await ConnectWhenAdmittedAsync(waitWhileFull, cancellationToken).ConfigureAwait(false);
        bool disposed;
        lock (_gate)
        {
            disposed = _disposed;
            if (!disposed)
            {
                _inUse++;
            }
        }

        if (disposed)
        {
            await CloseTrackedAsync(connection, releaseSlot: true).ConfigureAwait(false);
            throw PoolDisposed();
        }

        UsenetLog.ConnectionOpened(_logger, Provider.Name, Volatile.Read(ref _open), Provider.MaxConnections);
        return new ConnectionLease(this, connection);
    }

    /// <summary>
    /// Connects in the caller's slot, which it releases itself on failure. A 400/502 greeting means
    /// the provider is full (another client holds the account's connections, or it has not yet
    /// noticed one of ours closing), which is a wait, not a fault: retried with jittered, doubling
    /// pauses for up to OperationTimeout while the caller keeps its slot. A refused login and every
    /// other failure end at once.
    /// </summary>
    private async Task<INntpConnection> ConnectWhenAdmittedAsync(bool waitWhileFull, CancellationToken cancellationToken)
    {
        var started = _time.GetTimestamp();
        var pause = FirstFullRetryDelay;
        for (var refusals = 1; ; refusals++)
        {
            var attempt = _factory.ConnectAsync(Provider, _time, _stopping.Token);
            try
            {
                return await attempt.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // The provider may count this socket already: it keeps the slot until it is done.
                // (Also when the attempt finished at the same moment: its session must not leak.)
                _ = FinishAbandonedConnectAsync(attempt);
                throw;
            }
            catch (NntpServiceUnavailableException refusal)
            {
                _metrics?.RefusedAsFull();
                var waited = _time.GetElapsedTime(started);
                var left = Provider.OperationTimeout - waited;
                if (!waitWhileFull || left <= TimeSpan.Zero)
                {
                    UsenetLog.ProviderStayedFull(_logger, Provider.Name, refusals, waited, refusal.Code);
                    ReleaseSlot();
                    throw new ConnectionPoolTimeoutException(Provider.Name, Provider.MaxConnections, waited, refusal);
                }

                // Half fixed, half random: callers refused together do not all come back together.
                var delay = (pause / 2) + (pause / 2 * Random.Shared.NextDouble());
                if (delay > left)
                {
                    delay = left;
                }

                UsenetLog.ProviderFull(_logger, Provider.Name, refusal.Code, refusal.Message, delay);
                try
                {
                    await Task.Delay(delay, _time, cancellationToken).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    ReleaseSlot();
                    throw;
                }

                pause = pause * 2 < MaxFullRetryDelay ? pause * 2 : MaxFullRetryDelay;
            }
            catch (Exception error)
            {
                ReleaseSlot();
                if (error is OperationCanceledException && _stopping.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
                {
                    throw PoolDisposed();
                }

                if (error is not OperationCanceledException)
                {
                    UsenetLog.ConnectFailed(_logger, Provider.Name, error);
                }

                throw;
            }
        }
    }

    // A connect its caller stopped waiting for runs to its end: a session it opens is lent to the
    // next waiter or parked idle, as if returned; a failed one frees the slot.
    private async Task FinishAbandonedConnectAsync(Task<INntpConnection> attempt)
    {
        INntpConnection connection;
        try
        {
            connection = await attempt.ConfigureAwait(false);
        }
        catch (Exception)
        {
            ReleaseSlot(); // its own cleanup already waited for a live server to let go
            return;
        }

        lock (_gate)
        {
            _inUse++; // balanced by ReturnAsync
        }

        await ReturnAsync(connection).ConfigureAwait(false);
    }

    private ObjectDisposedException PoolDisposed() =>
        new(nameof(ProviderConnectionPool), $"The connection pool of provider '{Provider.Name}' was disposed.");
}
