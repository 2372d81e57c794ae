using System.Net;
using System.Net.Sockets;
using System.Text;

namespace NzbDav.Server.Tests.Testing;

/// <summary>
/// A web server on a loopback port that answers each path with a fixed status and body, as an
/// indexer serves NZBs for "add by URL". Raw HTTP/1.1 over a socket, one request per connection.
/// </summary>
public sealed class LoopbackHttpServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Dictionary<string, (int Status, byte[] Body, string? FileName)> _routes = new(StringComparer.Ordinal);
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _loop;

    public LoopbackHttpServer()
    {
        _listener.Start();
        _loop = AcceptAsync();
    }

    public Uri Url(string path) => new($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}{path}");

    public void Serve(string path, int status, byte[] body, string? fileName = null) => _routes[path] = (status, body, fileName);

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }

            _ = AnswerAsync(socket);
        }
    }

    private async Task AnswerAsync(Socket socket)
    {
        using (socket)
        {
            await using var stream = new NetworkStream(socket);
            var request = new StringBuilder();
            var buffer = new byte[4096];
            while (!request.ToString().Contains("\r\n\r\n", StringComparison.Ordinal))
            {
                var read = await stream.ReadAsync(buffer, _stop.Token);
                if (read == 0)
                    return;
                request.Append(Encoding.ASCII.GetString(buffer, 0, read));
            }

            var path = request.ToString().Split(' ')[1];
            var (status, body, fileName) = _routes.TryGetValue(path, out var route) ? route : (404, "not found"u8.ToArray(), null);
            var head = new StringBuilder()
                .Append("HTTP/1.1 ").Append(status).Append(status == 200 ? " OK" : " Error").Append("\r\n")
                .Append("Content-Length: ").Append(body.Length).Append("\r\n")
                .Append("Connection: close\r\n");
            if (fileName is not null)
                head.Append("Content-Disposition: attachment; filename=\"").Append(fileName).Append("\"\r\n");
            head.Append("\r\n");
            await stream.WriteAsync(Encoding.ASCII.GetBytes(head.ToString()), _stop.Token);
            await stream.WriteAsync(body, _stop.Token);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _loop;
        _stop.Dispose();
    }
}
