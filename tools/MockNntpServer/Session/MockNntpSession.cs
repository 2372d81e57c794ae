using System.Buffers;
using System.Diagnostics;
using System.IO.Pipelines;
using System.Net.Sockets;
using System.Text;
using System.Threading.Channels;
using NzbDav.MockNntp.Articles;

namespace NzbDav.MockNntp.Session;

/// <summary>
/// One client connection. A reader loop stamps each command with its due time (arrival + latency
/// ± jitter); a writer loop answers in order, each as soon as its own due time has passed. So D
/// pipelined commands come back after about one latency, not D.
/// </summary>
internal sealed partial class MockNntpSession : IAsyncDisposable
{
    private const int MaxLineLength = 4096;

    private readonly Socket _socket;
    private readonly Stream _stream;
    private readonly MockArticleStore _store;
    private readonly MockNntpOptions _options;
    private readonly MockBehavior _behavior;
    private readonly MockServerStats _stats;
    private readonly DateTimeOffset _postedAt;
    private readonly Random _latencyRandom;
    private readonly Random _faultRandom;
    private readonly Channel<MockPendingCommand> _commands =
        Channel.CreateBounded<MockPendingCommand>(new BoundedChannelOptions(1024) { SingleReader = true, SingleWriter = true });
    private readonly MockResponseWriter _writer;
    private readonly MockSessionSlot _slot;
    private string? _pendingUser;
    private bool _authenticated;
    private bool _transit;
    private bool _abortiveClose;
    private int _droppedByDown;

    public MockNntpSession(Socket socket, Stream stream, MockNntpServer server, int connectionNumber, MockSessionSlot slot)
    {
        _socket = socket;
        _slot = slot;
        _stream = stream;
        _store = server.Store;
        _options = server.Options;
        _behavior = server.Behavior;
        _stats = server.Stats;
        _postedAt = server.StartedAt;
        _latencyRandom = new Random(HashCode.Combine(_options.Seed, connectionNumber, 1));
        _faultRandom = new Random(HashCode.Combine(_options.Seed, connectionNumber, 2));
        _writer = new MockResponseWriter(stream, _behavior, _stats);
        _authenticated = _options.User is null;
        _transit = _options.TransitMode;
    }

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        using var sessionCts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        // The provider going down cuts this session at once, with a reset, whatever it is doing.
        using var down = _behavior.UpToken.Register(static state => ((MockNntpSession)state!).DropForOutage(), this);
        // The greeting is answered like a command: one latency after the connection arrived.
        _commands.Writer.TryWrite(new MockPendingCommand(null, DueAfterLatency()));
        var reading = ReadLoopAsync(sessionCts);
        try
        {
            await WriteLoopAsync(sessionCts.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The client went away or the server is stopping: either way this session is over.
        }
        finally
        {
            sessionCts.Cancel();
            // Done with the session before the client can see it closed.
            _slot.Release();
            if (_abortiveClose)
            {
                _socket.Close();
            }
            else
            {
                // FIN first, and close only once the reader has stopped: .NET on Linux closes a socket
                // that still has a receive pending abortively, so a client reading to end of stream
                // after QUIT would now and then see a reset instead of the end.
                ShutdownSend();
            }
            try
            {
                await reading.ConfigureAwait(false);
            }
            catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
            {
                // Expected once the session is cancelled or the socket is closed under the reader.
            }
            _socket.Close();
        }
    }

    private void DropForOutage()
    {
        if (Interlocked.Exchange(ref _droppedByDown, 1) != 0)
        {
            return;
        }
        _stats.CountDroppedByDown();
        try
        {
            _socket.LingerState = new LingerOption(true, 0);
            _abortiveClose = true;
            // Closing under the reader and the writer ends both loops; the client sees a reset.
            _socket.Close();
        }
        catch (ObjectDisposedException)
        {
            // The session was ending anyway.
        }
    }

    private void ShutdownSend()
    {
        try
        {
            _socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The client is already gone.
        }
    }

    /// <summary>The stream and socket belong to the server's accept path; only the buffer is ours.</summary>
    public ValueTask DisposeAsync()
    {
        _writer.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// Reads command lines until the client closes its side. End of stream ends the whole session
    /// at once, as when a client hangs up: unanswered commands are dropped and a stall is cut short,
    /// so a client that half-closes and reads to end of stream learns when the server let go.
    /// </summary>
    private async Task ReadLoopAsync(CancellationTokenSource session)
    {
        var cancellationToken = session.Token;
        var reader = PipeReader.Create(_stream, new StreamPipeReaderOptions(bufferSize: 16 * 1024, leaveOpen: true));
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
                var buffer = result.Buffer;
                while (TryReadLine(ref buffer, out var line))
                {
                    _stats.CountReceived();
                    // Stamped on arrival, so time spent waiting behind earlier answers counts toward this one's latency.
                    await _commands.Writer.WriteAsync(new MockPendingCommand(line, DueAfterLatency()), cancellationToken).ConfigureAwait(false);
                }
                if (buffer.Length > MaxLineLength)
                {
                    return;
                }
                reader.AdvanceTo(buffer.Start, buffer.End);
                if (result.IsCompleted)
                {
                    return;
                }
            }
        }
        finally
        {
            _commands.Writer.TryComplete();
            await reader.CompleteAsync().ConfigureAwait(false);
            session.Cancel();
        }
    }

    private async Task WriteLoopAsync(CancellationToken cancellationToken)
    {
        var reader = _commands.Reader;
        while (await reader.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
        {
            while (reader.TryRead(out var command))
            {
                var wait = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), command.DueTimestamp);
                if (wait > TimeSpan.Zero)
                {
                    // Answers already formatted go out now; only this one waits for its own due time.
                    await _writer.FlushAsync(cancellationToken).ConfigureAwait(false);
                    await Task.Delay(wait, cancellationToken).ConfigureAwait(false);
                }
                if (!await ExecuteAsync(command.Line, cancellationToken).ConfigureAwait(false))
                {
                    await _writer.FlushAsync(cancellationToken).ConfigureAwait(false);
                    return;
                }
            }
            await _writer.FlushAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private long DueAfterLatency()
    {
        var latency = _behavior.Latency;
        var jitter = _behavior.Jitter;
        if (jitter > TimeSpan.Zero)
        {
            latency += jitter * ((_latencyRandom.NextDouble() * 2) - 1);
        }
        var ticks = latency <= TimeSpan.Zero ? 0 : (long)(latency.TotalSeconds * Stopwatch.Frequency);
        return Stopwatch.GetTimestamp() + ticks;
    }

    private static bool TryReadLine(ref ReadOnlySequence<byte> buffer, out string line)
    {
        var reader = new SequenceReader<byte>(buffer);
        if (!reader.TryReadTo(out ReadOnlySequence<byte> bytes, (byte)'\n'))
        {
            line = "";
            return false;
        }
        line = Encoding.UTF8.GetString(bytes).TrimEnd('\r');
        buffer = buffer.Slice(reader.Position);
        return true;
    }
}
