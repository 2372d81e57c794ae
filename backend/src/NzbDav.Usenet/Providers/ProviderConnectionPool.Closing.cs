using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Closing sessions. A provider counts a session until it has noticed the close, so a slot is freed
// only once the connection's close has completed (see INntpConnection.CloseAsync): QUIT answered,
// or end of stream after a half-close. When the provider does not confirm within CloseTimeout the
// socket is cut and the slot freed anyway: holding it longer would starve our own callers for as
// long as a stalled provider likes, and if the provider still counts the dead session, the
// replacement's connect is refused with 502, which ConnectWhenAdmittedAsync waits out instead of
// failing the fetch.
public sealed partial class ProviderConnectionPool
{
    // Cancelled by DisposeAsync: closes still waiting for the provider cut their sockets at once,
    // and connects in progress stop. Never disposed (it holds no timer), so late readers are safe.
    private readonly CancellationTokenSource _stopping = new();
    private int _closing;
    private TaskCompletionSource? _allClosed;

    // Closes in the background: the holder that broke the session is not kept waiting, and the slot
    // stays counted as open until the close has completed. Never throws.
    private void CloseInBackground(INntpConnection connection) => _ = CloseTrackedAsync(connection, releaseSlot: true);

    // Every close goes through here, so DisposeAsync can cut and then await the ones in progress.
    // With counted, the caller already added it to _closing under the gate.
    private async Task CloseTrackedAsync(INntpConnection connection, bool releaseSlot, bool counted = false)
    {
        CancellationToken cut;
        lock (_gate)
        {
            if (!counted)
            {
                _closing++;
            }

            cut = _stopping.Token;
        }

        try
        {
            await connection.CloseAsync(cut).ConfigureAwait(false);
        }
        catch (Exception error)
        {
            UsenetLog.CloseFailed(_logger, Provider.Name, error);
        }
        finally
        {
            if (releaseSlot)
            {
                ReleaseSlot(closing: true);
            }

            TaskCompletionSource? allClosed;
            lock (_gate)
            {
                allClosed = --_closing == 0 ? _allClosed : null;
            }

            allClosed?.TrySetResult();
        }
    }

    // Called by DisposeAsync once _stopping is cancelled, so every close still running ends promptly.
    private async Task AwaitClosesAsync()
    {
        Task pending;
        lock (_gate)
        {
            pending = _closing == 0 ? Task.CompletedTask : (_allClosed ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }

        await pending.ConfigureAwait(false);
    }
}
