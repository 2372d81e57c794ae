using System.Diagnostics;
using System.Net.Sockets;
using System.Text;

namespace NzbDav.Server.Tests.Hosting;

/// <summary>What came back on a raw connection: the status (0 when the server closed without answering) and the head.</summary>
internal sealed record RawAnswer(int Status, string Head)
{
    public bool Answered => Status != 0;
}

/// <summary>Sends bytes exactly as given over a fresh TCP connection, so malformed requests reach Kestrel unchanged.</summary>
internal static class RawHttp
{
    /// <summary>
    /// Sends <paramref name="request"/> and reads the answer's head. With <paramref name="halfClose"/>
    /// the client then ends its side, as one does that drops mid-body.
    /// </summary>
    public static async Task<RawAnswer> SendAsync(Uri address, byte[] request, CancellationToken cancellationToken, bool halfClose = false)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(20));
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(address.Host, address.Port, deadline.Token);
        try
        {
            await socket.SendAsync(request, SocketFlags.None, deadline.Token);
            if (halfClose)
                socket.Shutdown(SocketShutdown.Send);
        }
        catch (SocketException)
        {
            // The server may refuse before it has read everything (a header too large): its answer is what counts.
        }

        return await ReadHeadAsync(socket, deadline.Token);
    }

    /// <summary>Reads until the end of the answer's head or until the server closes.</summary>
    public static async Task<RawAnswer> ReadHeadAsync(Socket socket, CancellationToken cancellationToken)
    {
        var received = new List<byte>();
        var buffer = new byte[8192];
        while (true)
        {
            int read;
            try
            {
                read = await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken);
            }
            catch (SocketException)
            {
                read = 0;
            }

            if (read == 0)
                break;
            received.AddRange(buffer.AsSpan(0, read));
            if (IndexOfHeadEnd(received) >= 0)
                break;
        }

        var text = Encoding.Latin1.GetString([.. received]);
        var end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        var head = end >= 0 ? text[..end] : text;
        var parts = head.Split(' ', 3);
        var status = parts.Length >= 2 && head.StartsWith("HTTP/", StringComparison.Ordinal) && int.TryParse(parts[1], out var code) ? code : 0;
        return new RawAnswer(status, head);
    }

    /// <summary>Waits until the server closes <paramref name="socket"/> (reading and dropping what it sends); returns when it did.</summary>
    public static async Task<long> WaitForCloseAsync(Socket socket, CancellationToken cancellationToken)
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

    private static int IndexOfHeadEnd(List<byte> bytes)
    {
        for (var i = 3; i < bytes.Count; i++)
        {
            if (bytes[i - 3] == '\r' && bytes[i - 2] == '\n' && bytes[i - 1] == '\r' && bytes[i] == '\n')
                return i;
        }

        return -1;
    }
}
