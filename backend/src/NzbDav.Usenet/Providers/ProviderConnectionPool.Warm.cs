using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Warming: sessions opened ahead of demand. Connecting costs one to three round trips (TCP, TLS,
// greeting, auth); a stream that is about to grow should find its sessions ready instead of paying
// that on the reader's critical path. Warmed sessions are idle, not lent: they hold no permit and
// whoever rents next gets them, and unused ones expire like any idle session.
public sealed partial class ProviderConnectionPool
{
    /// <summary>
    /// Starts opening sessions in the background until at least <paramref name="sessions"/> are open
    /// (lent, idle or being opened), never past MaxConnections. Returns at once with how many it
    /// started. A failure is only logged: the demand it anticipated connects itself and sees it then;
    /// a provider answering 502 (full) is not waited for.
    /// </summary>
    public int Warm(int sessions)
    {
        var target = Math.Min(sessions, Provider.MaxConnections);
        var started = 0;
        lock (_gate)
        {
            if (_disposed || _retired)
            {
                return 0;
            }

            while (Volatile.Read(ref _open) < target && TryReserveSlot())
            {
                started++;
            }
        }

        for (var i = 0; i < started; i++)
        {
            _ = WarmOneAsync();
        }

        return started;
    }

    private async Task WarmOneAsync()
    {
        INntpConnection connection;
        try
        {
            // A full provider is not worth waiting for ahead of demand: its slot goes back at once.
            connection = await ConnectWhenAdmittedAsync(waitWhileFull: false, CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception)
        {
            return; // logged, and the slot released, by the connect itself
        }

        lock (_gate)
        {
            _inUse++; // balanced by ReturnAsync, which lends it to a waiter or parks it idle
        }

        await ReturnAsync(connection).ConfigureAwait(false);
    }
}
