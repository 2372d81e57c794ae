using System.Net.Sockets;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    /// <summary>
    /// The only way this session becomes unusable. The first reason wins; both loops stop, every
    /// outstanding and future operation fails, and the socket is half-closed: the provider reads
    /// end of stream and ends its session, which <see cref="TearDownAsync"/> waits for before the
    /// socket is let go.
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
            // A quiet break is this side's own doing (a cancelled read, a close), never the provider's fault.
            _brokenByOwner = quiet;
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
        StartCloseDeadline();
        _shutdown.Cancel();
        try
        {
            _socket?.Shutdown(SocketShutdown.Send);
        }
        catch (SocketException)
        {
            // Already reset by the peer: it has let go of the session.
        }
        catch (ObjectDisposedException)
        {
        }
        _ = TearDownAsync();
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
        _watchdog = _time.CreateTimer(static state => ((NntpConnection)state!).CheckProgress(), this, period, period);
    }

    /// <summary>Breaks the session when the answer at the head of the line has sent nothing for a whole operation timeout.</summary>
    private void CheckProgress()
    {
        if (Volatile.Read(ref _outstanding) == 0 || Volatile.Read(ref _throttled) != 0)
        {
            return;
        }
        var silent = _time.GetElapsedTime(Volatile.Read(ref _lastProgressAt));
        if (silent > _provider.OperationTimeout)
        {
            Break(new NntpTimeoutException($"'{ProviderName}' sent nothing for {(long)silent.TotalMilliseconds} ms (operation timeout {_provider.OperationTimeout.TotalMilliseconds} ms)."));
        }
    }
}
