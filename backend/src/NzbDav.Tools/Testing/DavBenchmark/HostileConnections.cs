using System.Diagnostics;
using System.Net.Sockets;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>What the hostile connections held through the concurrent phase came to.</summary>
/// <param name="Idle">Connections opened that never sent a byte.</param>
/// <param name="Slow">Connections that trickled a request header, one byte per interval.</param>
/// <param name="SlowCut">Slow ones the server had closed by the end of the phase (its header timeout).</param>
/// <param name="IdleHeld">Idle ones still open at the end: accepted and held, not refused.</param>
public sealed record HostileConnectionsResult(int Idle, int Slow, int SlowCut, int IdleHeld);

/// <summary>
/// <c>--hostile-connections=N</c>: N sockets against the host during the concurrent phase, half of
/// them idle after connecting, half sending a request header one byte every 300 ms (slowloris), to
/// show they do not slow the streams down and that the header timeout cuts the slow ones. The
/// connection flood test (IdleConnectionFloodTests) opens the same ones.
/// </summary>
public sealed class HostileConnections : IAsyncDisposable
{
    private static readonly TimeSpan TrickleInterval = TimeSpan.FromMilliseconds(300);
    private static readonly byte[] RequestStart = "GET / HTTP/1.1\r\nHost: bench\r\nX-Slow: "u8.ToArray();

    private readonly List<Socket> _idle = [];
    // Closed: the timestamp at which the server closed the connection.
    private readonly List<(Socket Socket, long FirstByte, Task<long> Closed)> _slow = [];
    private readonly CancellationTokenSource _stop = new();
    private Task _trickle = Task.CompletedTask;

    private HostileConnections()
    {
    }

    public static async Task<HostileConnections> OpenAsync(Uri root, int count, CancellationToken cancellationToken)
    {
        var connections = new HostileConnections();
        try
        {
            // One at a time: a burst would overflow the listen backlog and measure the kernel's SYN retries.
            for (var i = 0; i < count; i++)
            {
                var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                await socket.ConnectAsync(root.Host, root.Port, cancellationToken);
                if (i % 2 == 0)
                {
                    connections._idle.Add(socket);
                    continue;
                }

                await socket.SendAsync(RequestStart, SocketFlags.None, cancellationToken);
                connections._slow.Add((socket, Stopwatch.GetTimestamp(), WaitForCloseAsync(socket, connections._stop.Token)));
            }

            connections._trickle = connections.TrickleAsync(connections._stop.Token);
            return connections;
        }
        catch
        {
            await connections.DisposeAsync();
            throw;
        }
    }

    /// <summary>Completes when the server has closed every slow connection.</summary>
    public Task AllSlowCut => Task.WhenAll(_slow.Select(s => s.Closed));

    /// <summary>Slow connections the server has not closed yet.</summary>
    public int SlowOpen => _slow.Count(s => !s.Closed.IsCompleted);

    /// <summary>For each slow connection the server closed, how long after its first byte, shortest first.</summary>
    public async Task<IReadOnlyList<TimeSpan>> SlowCutAfterAsync()
    {
        var cuts = new List<TimeSpan>();
        foreach (var (_, firstByte, closed) in _slow.Where(s => s.Closed.IsCompletedSuccessfully))
            cuts.Add(Stopwatch.GetElapsedTime(firstByte, await closed));
        cuts.Sort();
        return cuts;
    }

    /// <summary>Stops trickling and counts what the server did with the connections.</summary>
    public async Task<HostileConnectionsResult> StopAsync()
    {
        await _stop.CancelAsync();
        await _trickle;
        var cut = _slow.Count(s => s.Closed.IsCompletedSuccessfully);
        // Readable with nothing to read means the server closed it.
        var held = _idle.Count(s => !s.Poll(0, SelectMode.SelectRead));
        return new HostileConnectionsResult(_idle.Count, _slow.Count, cut, held);
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        foreach (var socket in _idle.Concat(_slow.Select(s => s.Socket)))
            socket.Dispose();
        try
        {
            await _trickle;
        }
        catch (OperationCanceledException)
        {
            // Stopped on purpose.
        }

        _stop.Dispose();
    }

    private static async Task<long> WaitForCloseAsync(Socket socket, CancellationToken cancellationToken)
    {
        var buffer = new byte[1024];
        while (true)
        {
            try
            {
                if (await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken) == 0)
                    return Stopwatch.GetTimestamp();
            }
            catch (SocketException)
            {
                return Stopwatch.GetTimestamp();
            }
        }
    }

    private async Task TrickleAsync(CancellationToken cancellationToken)
    {
        var oneByte = "a"u8.ToArray();
        using var timer = new PeriodicTimer(TrickleInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                foreach (var (socket, _, closed) in _slow)
                {
                    if (closed.IsCompleted)
                        continue;
                    try
                    {
                        await socket.SendAsync(oneByte, SocketFlags.None, cancellationToken);
                    }
                    catch (SocketException)
                    {
                        // Cut between the check and the send.
                    }
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The phase is over.
        }
    }
}
