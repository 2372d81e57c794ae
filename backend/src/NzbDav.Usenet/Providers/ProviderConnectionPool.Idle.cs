using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Idle expiry: checked when a session is taken, and swept periodically so an unused pool lets go
// of its sessions (they count against the account's limit for other tools too).
public sealed partial class ProviderConnectionPool
{
    /// <summary>The close work of the latest sweep (completed when none is running).</summary>
    internal Task PendingSweep
    {
        get
        {
            lock (_gate)
            {
                return _sweep;
            }
        }
    }

    private bool IsFresh(IdleConnection entry) =>
        entry.Connection.IsUsable && _time.GetElapsedTime(entry.IdleSince) < Provider.IdleTimeout;

    private void SweepIdle()
    {
        lock (_gate)
        {
            if (_disposed || !_sweep.IsCompleted || _idle.Count == 0)
            {
                return;
            }

            List<INntpConnection>? expired = null;
            for (var remaining = _idle.Count; remaining > 0; remaining--)
            {
                var entry = _idle.Dequeue();
                if (IsFresh(entry))
                {
                    _idle.Enqueue(entry); // keeps FIFO order
                }
                else
                {
                    (expired ??= []).Add(entry.Connection);
                }
            }

            if (expired is not null)
            {
                // Task.Run only queues the work, so nothing of the close runs under the gate.
                _sweep = Task.Run(() => CloseExpiredAsync(expired));
            }
        }
    }

    private async Task CloseExpiredAsync(List<INntpConnection> expired)
    {
        await Task.WhenAll(expired.Select(connection => CloseTrackedAsync(connection, releaseSlot: true))).ConfigureAwait(false);

        UsenetLog.IdleClosed(_logger, expired.Count, Provider.Name, Provider.IdleTimeout);
    }
}
