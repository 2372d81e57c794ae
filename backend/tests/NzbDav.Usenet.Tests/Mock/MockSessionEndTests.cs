using System.Net.Sockets;
using System.Text;
using NzbDav.MockNntp;

namespace NzbDav.Usenet.Tests.Mock;

/// <summary>
/// When a mock session ends and when it stops counting against MaxConnections: at the client's end
/// of stream, and before the client can see the server's close.
/// </summary>
public sealed class MockSessionEndTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact(Timeout = 60_000)]
    public async Task A_stalled_session_ends_when_the_client_closes_its_side()
    {
        var ct = TestContext.Current.CancellationToken;
        var behavior = new MockBehavior { StallFraction = 1, StallDuration = TimeSpan.FromHours(1) };
        await using var server = await MockNntpBehaviorTests.StartAsync(new MockNntpOptions { MaxConnections = 1, Behavior = behavior });
        using var socket = await ConnectAsync(server.Port);
        Assert.StartsWith("200 ", await ReadToEndOrLineAsync(socket));
        await socket.SendAsync(Encoding.ASCII.GetBytes($"STAT <{server.Store.Files[0].Articles[0].MessageId}>\r\n"), SocketFlags.None, ct);
        while (server.Stats.GetCommandCount(MockCommandKind.Stat) == 0)
        {
            await Task.Delay(5, ct); // the stall has begun once the command is counted
        }

        socket.Shutdown(SocketShutdown.Send);

        Assert.Equal("", await ReadToEndOrLineAsync(socket)); // end of stream, nothing answered
        Assert.Equal(0, server.Stats.CurrentConnections);
        await using var next = await MockNntpServerTests.ConnectReadyAsync(server.Port);
        Assert.Equal(0, server.Stats.RejectedConnections);
    }

    [Fact]
    public async Task After_QUIT_the_slot_is_free_before_the_client_sees_the_close()
    {
        await using var server = await MockNntpBehaviorTests.StartAsync(new MockNntpOptions { MaxConnections = 1 });
        for (var i = 0; i < 20; i++)
        {
            using var socket = await ConnectAsync(server.Port);
            Assert.StartsWith("200 ", await ReadToEndOrLineAsync(socket));
            await socket.SendAsync("QUIT\r\n"u8.ToArray(), SocketFlags.None, Ct);
            Assert.StartsWith("205 ", await ReadToEndOrLineAsync(socket));
            Assert.Equal("", await ReadToEndOrLineAsync(socket));

            Assert.Equal(0, server.Stats.CurrentConnections);
        }

        Assert.Equal(0, server.Stats.RejectedConnections);
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync("127.0.0.1", port, Ct);
        return socket;
    }

    // One byte at a time (these answers are tiny): the next line without CRLF, or "" at end of stream.
    private static async Task<string> ReadToEndOrLineAsync(Socket socket)
    {
        var line = new StringBuilder();
        var one = new byte[1];
        while (await socket.ReceiveAsync(one, SocketFlags.None, Ct) == 1)
        {
            if (one[0] == '\n')
            {
                return line.ToString().TrimEnd('\r');
            }

            line.Append((char)one[0]);
        }

        return line.ToString();
    }
}
