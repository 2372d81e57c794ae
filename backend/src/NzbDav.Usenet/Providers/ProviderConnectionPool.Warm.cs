using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Warming: sessions opened ahead of demand. Connecting costs one to three round trips (TCP, TLS,
// greeting, auth); a stream that is about to grow should find its sessions ready instead of paying
// that on the reader's critical path. Warmed sessions are idle, not lent: they hold no permit and
// whoever rents next gets them, and unused ones expire like any idle session.
public sealed partial class ProviderConnectionPool
{
    private int _warming;

    /// <summary>
    /// Starts opening sessions in the background until at least <paramref name="sessions"/> are open
    /// (lent, idle or being opened), never past MaxConnections. Returns at once with how many it
    /// started. A failure is only logged: the demand it anticipated connects itself and sees it then.
    /// </summary>
    public int Warm(int sessions)
    {
        var target = Math.Min(sessions, Provider.MaxConnections);
        var started = 0;
        lock (_gate)
        {
            if (_disposed)
            {
                return 0;
            }

            while (Volatile.Read(ref _open) < target && TryReserveSlot())
            {
                started++;
            }

            _warming += started;
        }

        for (var i = 0; i < started; i++)
        {
            _ = WarmOneAsync();
        }

        return started;
    }

    private async Task WarmOneAsync()
    {
        INntpConnection? connection = null;
        try
        {
            connection = await _factory.ConnectAsync(Provider, CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception error)
        {
            UsenetLog.WarmFailed(_logger, Provider.Name, error);
        }

        bool disposed;
        lock (_gate)
        {
            _warming--;
            disposed = _disposed;
            if (connection is not null && !disposed)
            {
                // A waiter is owed the next free session; otherwise it waits idle for the next rent.
                if (_waiters.First is { } node)
                {
                    _waiters.RemoveFirst();
                    _inUse++;
                    node.Value.TrySetResult(connection);
                }
                else
                {
                    _idle.Enqueue(new IdleConnection(connection, _time.GetTimestamp()));
                }

                return;
            }
        }

        if (connection is null)
        {
            ReleaseSlot();
        }
        else
        {
            await CloseAndReleaseSlotAsync(connection).ConfigureAwait(false);
        }
    }
}
