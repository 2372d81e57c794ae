using System.Net;
using System.Net.Sockets;
using System.Text;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>
/// A one-connection server that sends a greeting, then answers the i-th command line with the i-th
/// canned reply: for answers the mock server would never give (oversized parts, odd codes).
/// </summary>
internal sealed class ScriptedNntpServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Task _serving;

    public ScriptedNntpServer(string greeting, params string[] replies)
    {
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _serving = ServeAsync(greeting, replies);
    }

    public int Port { get; }

    public List<string> Received { get; } = [];

    public async ValueTask DisposeAsync()
    {
        _listener.Stop();
        try
        {
            await _serving;
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException)
        {
            // The client hung up first; nothing left to check.
        }
        _listener.Dispose();
    }

    private async Task ServeAsync(string greeting, string[] replies)
    {
        using var client = await _listener.AcceptTcpClientAsync();
        await using var stream = client.GetStream();
        using var reader = new StreamReader(stream, Encoding.ASCII);
        await stream.WriteAsync(Encoding.ASCII.GetBytes(greeting));
        foreach (var reply in replies)
        {
            var line = await reader.ReadLineAsync();
            if (line is null)
            {
                return;
            }
            Received.Add(line);
            await stream.WriteAsync(Encoding.ASCII.GetBytes(reply));
        }
        // Hold the connection until the client closes it.
        while (await reader.ReadLineAsync() is { } extra)
        {
            Received.Add(extra);
        }
    }
}
