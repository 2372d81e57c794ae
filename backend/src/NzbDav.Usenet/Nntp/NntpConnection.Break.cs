using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    private static readonly TimeSpan QuitTimeout = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The only way this session becomes unusable. The first reason wins; the socket is closed
    /// once, both loops stop, and every outstanding and future operation fails.
    /// </summary>
    /// <returns>The reason the session is broken (the first one given).</returns>
    internal Exception Break(Exception reason, bool quiet = false)
    {
        lock (_stateLock)
        {
            if (_breakReason is not null)
            {
                return _breakReason;
            }
            _breakReason = reason;
            // No request can be queued after this, so the receive loop's final drain sees them all.
            _sendQueue.Writer.TryComplete();
            _receiveQueue.Writer.TryComplete();
        }
        if (quiet)
        {
            NntpLog.Closed(_logger, ProviderName, reason.Message);
        }
        else
        {
            NntpLog.Broken(_logger, ProviderName, reason.Message, reason);
        }
        _watchdog?.Dispose();
        _shutdown.Cancel();
        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException)
        {
            // Already reset by the peer; closing is all that is left.
        }
        catch (ObjectDisposedException)
        {
        }
        _socket.Dispose();
        return reason;
    }

    /// <summary>The exception for an operation that did not cause the break but is failed by it.</summary>
    private NntpException BrokenFor(Exception reason) => reason switch
    {
        NntpTimeoutException => new NntpTimeoutException($"The connection to '{ProviderName}' timed out: {reason.Message}", reason),
        _ => new NntpProtocolException($"The connection to '{ProviderName}' is broken: {reason.Message}", reason),
    };

    /// <summary>The exception for the operation whose answer was being read when the session broke.</summary>
    private Exception HeadOfLineFailure(Exception reason) => reason as NntpException ?? BrokenFor(reason);

    private static Exception Translate(Exception error, string provider) => error switch
    {
        NntpException => error,
        IOException or SocketException or ObjectDisposedException => new NntpProtocolException($"The connection to '{provider}' failed: {error.Message}", error),
        _ => new NntpProtocolException($"Unexpected failure on the connection to '{provider}': {error.Message}", error),
    };

    private void StartWatchdog()
    {
        var timeout = _provider.OperationTimeout;
        var period = TimeSpan.FromTicks(Math.Clamp(timeout.Ticks / 4, TimeSpan.FromMilliseconds(25).Ticks, TimeSpan.FromSeconds(5).Ticks));
        _watchdog = TimeProvider.System.CreateTimer(static state => ((NntpConnection)state!).CheckProgress(), this, period, period);
    }

    /// <summary>Breaks the session when the answer at the head of the line has sent nothing for a whole operation timeout.</summary>
    private void CheckProgress()
    {
        if (Volatile.Read(ref _outstanding) == 0)
        {
            return;
        }
        var silentMs = Environment.TickCount64 - Volatile.Read(ref _lastProgressTicks);
        if (silentMs > _provider.OperationTimeout.TotalMilliseconds)
        {
            Break(new NntpTimeoutException($"'{ProviderName}' sent nothing for {silentMs} ms (operation timeout {_provider.OperationTimeout.TotalMilliseconds} ms)."));
        }
    }

    /// <summary>Sends QUIT when the session is idle and healthy (best effort, short timeout), then closes it.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }
        // QUIT only goes out when nothing else is in flight, so it never waits for a slot.
        if (IsUsable && Volatile.Read(ref _outstanding) == 0 && _slots.Wait(0))
        {
            var quit = new NntpRequest<bool>(NntpCommandKind.Quit, null, null, CancellationToken.None);
            if (!TryEnqueue(quit))
            {
                _slots.Release();
            }
            else
            {
                try
                {
                    await quit.Task.WaitAsync(QuitTimeout);
                }
                catch (Exception e) when (e is NntpException or TimeoutException)
                {
                    // Best effort: the server may already be gone.
                }
            }
        }
        Break(new NntpProtocolException($"The connection to '{ProviderName}' was closed by its owner."), quiet: true);
        await Task.WhenAll(_sendLoop, _receiveLoop);
        await _reader.CompleteAsync();
        try
        {
            await _stream.DisposeAsync();
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException or SocketException)
        {
            // The socket is closed already; a TLS close_notify cannot be sent, which is fine.
        }
        _shutdown.Dispose();
    }
}
