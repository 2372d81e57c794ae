using System.Buffers;
using System.Net.Sockets;

namespace NzbDav.Usenet.Nntp;

// Closing so that the provider has let go of the session before anyone reuses its slot: a provider
// counts a session until it notices the close, and a replacement that connects before that gets
// "502 too many connections".
public sealed partial class NntpConnection
{
    private const int DrainBufferSize = 16 * 1024;

    // Cancelled when the close deadline (CloseTimeout after the close began) passes or an owner
    // cuts the close short; the QUIT wait and the drain then stop and the socket is cut. Never
    // disposed: a late owner may still cancel it, and its timer is never armed until the close.
    private readonly CancellationTokenSource _closeBudget;
    private readonly TaskCompletionSource _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _closeRequested;
    private int _closeDeadlineStarted;

    /// <inheritdoc />
    public async ValueTask CloseAsync(CancellationToken cancellationToken)
    {
        using (cancellationToken.UnsafeRegister(static state => ((NntpConnection)state!).CutClose(), this))
        {
            if (Interlocked.Exchange(ref _closeRequested, 1) == 0)
            {
                StartCloseDeadline();
                await QuitIfIdleAsync().ConfigureAwait(false);
                Break(new NntpProtocolException($"The connection to '{ProviderName}' was closed by its owner."), quiet: true);
            }
            await _closed.Task.ConfigureAwait(false);
        }
    }

    /// <summary>Closes as <see cref="CloseAsync"/> does, within the provider's CloseTimeout.</summary>
    public ValueTask DisposeAsync() => CloseAsync(CancellationToken.None);

    private void StartCloseDeadline()
    {
        if (Interlocked.Exchange(ref _closeDeadlineStarted, 1) == 0)
        {
            _closeBudget.CancelAfter(_provider.CloseTimeout);
        }
    }

    private void CutClose() => _closeBudget.Cancel();

    /// <summary>QUIT only goes out when nothing else is in flight, so it never waits for a slot; best effort.</summary>
    private async Task QuitIfIdleAsync()
    {
        if (!IsUsable || Volatile.Read(ref _outstanding) != 0 || !_slots.Wait(0))
        {
            return;
        }
        var quit = new NntpRequest<bool>(NntpCommandKind.Quit, null, null, CancellationToken.None);
        if (!TryEnqueue(quit))
        {
            _slots.Release();
            return;
        }
        try
        {
            // After its 205 the provider closes; the drain below then sees the end of stream at once.
            await quit.Task.WaitAsync(_closeBudget.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is NntpException or OperationCanceledException)
        {
            // The server may already be gone, or too slow: the half-close and drain still follow.
        }
    }

    /// <summary>
    /// Runs once, from <see cref="Break"/>: waits for both loops to let go of the stream, reads and
    /// drops whatever the provider still sends until it closes (end of stream or reset), then
    /// releases the socket. Cut short by the close deadline or by an owner's cancellation.
    /// </summary>
    private async Task TearDownAsync()
    {
        var budget = _closeBudget.Token;
        var confirmed = false;
        try
        {
            await Task.WhenAll(_sendLoop, _receiveLoop).WaitAsync(budget).ConfigureAwait(false);
            if (_socket is not null)
            {
                await DrainAsync(_socket, budget).ConfigureAwait(false);
            }
            confirmed = true;
        }
        catch (OperationCanceledException)
        {
            // Deadline passed or cut short: the socket is cut below.
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            confirmed = true; // reset: the provider has dropped the session
        }
        finally
        {
            if (!confirmed)
            {
                NntpLog.CloseUnconfirmed(_logger, ProviderName, _provider.CloseTimeout);
            }
            _socket?.Dispose();
            await Task.WhenAll(_sendLoop, _receiveLoop).ConfigureAwait(false);
            await _reader.CompleteAsync().ConfigureAwait(false);
            try
            {
                await _stream.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception e) when (e is IOException or ObjectDisposedException or SocketException)
            {
                // The socket is closed already; a TLS close_notify cannot be sent, which is fine.
            }
            _shutdown.Dispose();
            _closed.TrySetResult();
        }
    }

    /// <summary>
    /// After a failed handshake with a live server (refused greeting, refused login): half-closes and
    /// waits, within CloseTimeout, for the server to end its session, so the caller's next connect is
    /// not refused because of this one. Never throws.
    /// </summary>
    private static async Task LetGoAfterHandshakeAsync(Socket socket, TimeSpan closeTimeout, TimeProvider time, CancellationToken cancellationToken)
    {
        using var deadline = new CancellationTokenSource(closeTimeout, time);
        using var budget = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, deadline.Token);
        try
        {
            socket.Shutdown(SocketShutdown.Send);
            await DrainAsync(socket, budget.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Too slow, or already reset: either way the socket is cut next.
        }
    }

    /// <summary>Reads and drops raw bytes until the peer closes. The TLS layer, if any, is bypassed: nothing read here is used.</summary>
    private static async Task DrainAsync(Socket socket, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(DrainBufferSize);
        try
        {
            while (await socket.ReceiveAsync(buffer.AsMemory(), SocketFlags.None, cancellationToken).ConfigureAwait(false) > 0)
            {
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
