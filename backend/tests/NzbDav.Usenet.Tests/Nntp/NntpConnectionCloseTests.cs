using System.Net;
using System.Net.Sockets;
using System.Text;
using NzbDav.MockNntp;

namespace NzbDav.Usenet.Tests.Nntp;

/// <summary>A close completes only once the server has ended its session (or the close was cut).</summary>
public sealed class NntpConnectionCloseTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Closing_an_idle_session_sends_QUIT_and_returns_after_the_server_ended_it()
    {
        await using var server = await StartAsync(new MockBehavior());
        var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        Assert.True(await connection.StatAsync(server.Store.Files[0].Articles[0].MessageId, Ct));
        Assert.Equal(1, server.Stats.CurrentConnections);

        await connection.DisposeAsync();

        Assert.Equal(1, server.Stats.GetCommandCount(MockCommandKind.Quit));
        Assert.Equal(0, server.Stats.CurrentConnections);
        await connection.DisposeAsync(); // idempotent
    }

    [Fact]
    public async Task Closing_a_session_broken_mid_body_returns_after_the_server_ended_it()
    {
        await using var server = await StartAsync(new MockBehavior { BandwidthBytesPerSecond = 256 * 1024 });
        var connection = await NntpTestProviders.ConnectAsync(NntpTestProviders.For(server.Port));
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Ct);
        var target = new RecordingBodyTarget();
        var body = connection.BodyAsync(server.Store.Files[0].Articles[0].MessageId, target, cancel.Token);
        await target.FirstAdvance.WaitAsync(Ct);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => body);
        Assert.False(connection.IsUsable);

        await connection.CloseAsync(Ct);

        Assert.Equal(0, server.Stats.GetCommandCount(MockCommandKind.Quit));
        Assert.Equal(0, server.Stats.CurrentConnections);
    }

    [Fact]
    public async Task A_close_waiting_on_a_silent_server_is_cut_by_its_token()
    {
        await using var silent = new SilentServer();
        var connection = await NntpTestProviders.Factory.ConnectAsync(NntpTestProviders.For(silent.Port) with { CloseTimeout = TimeSpan.FromHours(1) }, TimeProvider.System, Ct);
        using var cut = CancellationTokenSource.CreateLinkedTokenSource(Ct);

        var closing = connection.CloseAsync(cut.Token).AsTask();
        var disposing = connection.DisposeAsync().AsTask(); // waits for the same close
        Assert.Equal("QUIT", await silent.ReadLineAsync());
        Assert.False(closing.IsCompleted);

        await cut.CancelAsync();
        await closing;
        await disposing;

        Assert.Null(await silent.ReadLineAsync()); // the client's side is closed
    }

    [Fact(Timeout = 60_000)]
    public async Task A_close_waiting_on_a_silent_server_ends_after_CloseTimeout()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var silent = new SilentServer();
        var connection = await NntpTestProviders.Factory.ConnectAsync(NntpTestProviders.For(silent.Port) with { CloseTimeout = TimeSpan.FromMilliseconds(200) }, TimeProvider.System, ct);

        await connection.DisposeAsync();

        Assert.Equal("QUIT", await silent.ReadLineAsync());
        Assert.Null(await silent.ReadLineAsync());
    }

    private static async Task<MockNntpServer> StartAsync(MockBehavior behavior)
    {
        var server = new MockNntpServer(new MockNntpOptions { Seed = 3, Behavior = behavior });
        server.Store.AddGeneratedFile("close.bin", 3L * 200_000, 200_000);
        await server.StartAsync(Ct);
        return server;
    }

    /// <summary>Greets, then never answers and never closes: a provider that does not notice a close.</summary>
    private sealed class SilentServer : IAsyncDisposable
    {
        private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
        private readonly Task<Socket> _accepted;
        private StreamReader? _reader;

        public SilentServer()
        {
            _listener.Start();
            Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
            _accepted = GreetAsync();
        }

        public int Port { get; }

        /// <summary>The next line the client sent; null once the client closed its side.</summary>
        public async Task<string?> ReadLineAsync()
        {
            var socket = await _accepted;
            _reader ??= new StreamReader(new NetworkStream(socket, ownsSocket: false), Encoding.ASCII);
            try
            {
                return await _reader.ReadLineAsync(Ct);
            }
            catch (IOException)
            {
                return null; // reset: closed as well
            }
        }

        public async ValueTask DisposeAsync()
        {
            _listener.Stop();
            _reader?.Dispose();
            (await _accepted).Dispose();
        }

        private async Task<Socket> GreetAsync()
        {
            var socket = await _listener.AcceptSocketAsync(Ct);
            await socket.SendAsync("200 silent server ready\r\n"u8.ToArray(), SocketFlags.None, Ct);
            return socket;
        }
    }
}
