using System.Net.Security;
using System.Net.Sockets;
using System.Text;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>A deliberately dumb NNTP client over a raw TcpClient, to test the mock server on the wire.</summary>
internal sealed class RawNntpClient : IAsyncDisposable
{
    private readonly TcpClient _tcp;
    private readonly Stream _stream;
    private readonly byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;

    private RawNntpClient(TcpClient tcp, Stream stream)
    {
        _tcp = tcp;
        _stream = stream;
    }

    public static async Task<RawNntpClient> ConnectAsync(int port, CancellationToken cancellationToken, bool tls = false)
    {
        var tcp = new TcpClient();
        await tcp.ConnectAsync("127.0.0.1", port, cancellationToken);
        Stream stream = tcp.GetStream();
        if (tls)
        {
#pragma warning disable CA5359 // The peer is the mock server on loopback with its self-signed certificate.
            var ssl = new SslStream(stream, false, (_, _, _, _) => true);
#pragma warning restore CA5359
            await ssl.AuthenticateAsClientAsync(new SslClientAuthenticationOptions { TargetHost = "localhost" }, cancellationToken);
            stream = ssl;
        }
        return new RawNntpClient(tcp, stream);
    }

    public async Task SendAsync(string text, CancellationToken cancellationToken)
    {
        await _stream.WriteAsync(Encoding.ASCII.GetBytes(text), cancellationToken);
        await _stream.FlushAsync(cancellationToken);
    }

    /// <summary>The next line without CRLF, or null at end of stream.</summary>
    public async Task<string?> ReadLineAsync(CancellationToken cancellationToken)
    {
        var bytes = await ReadLineBytesAsync(cancellationToken);
        return bytes is null ? null : Encoding.UTF8.GetString(bytes, 0, bytes.Length - 2);
    }

    /// <summary>Raw bytes of a multi-line block up to and including the ".\r\n" line; null if the stream ends first.</summary>
    public async Task<byte[]?> ReadMultiLineAsync(CancellationToken cancellationToken)
    {
        var all = new MemoryStream();
        while (await ReadLineBytesAsync(cancellationToken) is { } line)
        {
            all.Write(line);
            if (line.AsSpan().SequenceEqual(".\r\n"u8))
            {
                return all.ToArray();
            }
        }
        return null;
    }

    public async ValueTask DisposeAsync()
    {
        await _stream.DisposeAsync();
        _tcp.Dispose();
    }

    private async Task<byte[]?> ReadLineBytesAsync(CancellationToken cancellationToken)
    {
        var line = new List<byte>();
        while (true)
        {
            if (_start == _end)
            {
                _start = 0;
                try
                {
                    _end = await _stream.ReadAsync(_buffer, cancellationToken);
                }
                catch (IOException)
                {
                    _end = 0;
                }
                if (_end == 0)
                {
                    return null;
                }
            }
            var b = _buffer[_start++];
            line.Add(b);
            if (b == '\n' && line.Count >= 2 && line[^2] == '\r')
            {
                return [.. line];
            }
        }
    }
}
