using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Opening a session in a slot the caller owns, including the wait when the provider is full.
public sealed partial class ProviderConnectionPool
{
    private static readonly TimeSpan FirstFullRetryDelay = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan MaxFullRetryDelay = TimeSpan.FromSeconds(1);

    // The caller owns one slot; on any failure the slot is released (waking one waiter).
    private async ValueTask<ConnectionLease> OpenAsync(INntpConnection? stale, bool waitWhileFull, CancellationToken cancellationToken)
    {
        INntpConnection connection;
        try
        {
            if (stale is not null)
            {
                // The slot is ours already; it is reused only once the provider has let go of the old session.
                await CloseTrackedAsync(stale, releaseSlot: false).ConfigureAwait(false);
            }

            connection = await ConnectWhenAdmittedAsync(waitWhileFull, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error)
        {
            var callerCancelled = error is OperationCanceledException && cancellationToken.IsCancellationRequested;
            if (!callerCancelled && error is not ConnectionPoolTimeoutException) // that one is logged where it is raised
            {
                UsenetLog.ConnectFailed(_logger, Provider.Name, error);
            }

            ReleaseSlot();
            throw;
        }

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
            throw new ObjectDisposedException(nameof(ProviderConnectionPool), $"The connection pool of provider '{Provider.Name}' was disposed.");
        }

        UsenetLog.ConnectionOpened(_logger, Provider.Name, Volatile.Read(ref _open), Provider.MaxConnections);
        return new ConnectionLease(this, connection);
    }

    /// <summary>
    /// Connects; a 400/502 greeting means the provider is full (another client holds the account's
    /// connections, or it has not yet noticed one of ours closing), which is a wait, not a fault:
    /// retried with jittered, doubling pauses for up to OperationTimeout while the caller keeps its
    /// slot. A refused login and every other failure end at once.
    /// </summary>
    private async Task<INntpConnection> ConnectWhenAdmittedAsync(bool waitWhileFull, CancellationToken cancellationToken)
    {
        var started = _time.GetTimestamp();
        var pause = FirstFullRetryDelay;
        for (var refusals = 1; ; refusals++)
        {
            try
            {
                return await _factory.ConnectAsync(Provider, cancellationToken).ConfigureAwait(false);
            }
            catch (NntpServiceUnavailableException refusal)
            {
                var waited = _time.GetElapsedTime(started);
                var left = Provider.OperationTimeout - waited;
                if (!waitWhileFull || left <= TimeSpan.Zero)
                {
                    UsenetLog.ProviderStayedFull(_logger, Provider.Name, refusals, waited, refusal.Code);
                    throw new ConnectionPoolTimeoutException(Provider.Name, Provider.MaxConnections, waited, refusal);
                }

                // Half fixed, half random: callers refused together do not all come back together.
                var delay = (pause / 2) + (pause / 2 * Random.Shared.NextDouble());
                if (delay > left)
                {
                    delay = left;
                }

                UsenetLog.ProviderFull(_logger, Provider.Name, refusal.Code, refusal.Message, delay);
                await Task.Delay(delay, _time, cancellationToken).ConfigureAwait(false);
                pause = pause * 2 < MaxFullRetryDelay ? pause * 2 : MaxFullRetryDelay;
            }
        }
    }
}
