using System.Collections.Concurrent;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using NzbDav.MockNntp.Articles;
using NzbDav.MockNntp.Nzb;
using NzbDav.MockNntp.Session;

namespace NzbDav.MockNntp;

/// <summary>
/// A real NNTP server on 127.0.0.1 for tests, benchmarks and demo mode: yEnc articles, pipelining
/// with a latency model, optional AUTHINFO, implicit TLS and injectable faults.
/// </summary>
public sealed class MockNntpServer : IAsyncDisposable
{
    private readonly CancellationTokenSource _stopping = new();
    private readonly ConcurrentDictionary<int, Task> _sessions = new();
    private TcpListener? _listener;
    private X509Certificate2? _certificate;
    private Task? _acceptLoop;
    private int _connectionNumber;
    private int _disposed;

    private int _maxConnections; // 0: no cap

    public MockNntpServer(MockNntpOptions? options = null)
    {
        Options = options ?? new MockNntpOptions();
        _maxConnections = Options.MaxConnections ?? 0;
        if (Options.User is null != Options.Password is null)
        {
            throw new ArgumentException("User and Password must be set together.", nameof(options));
        }
        Store = new MockArticleStore(Options.Seed, Options.Behavior, Options.MessageIdToken);
    }

    public MockNntpOptions Options { get; }

    /// <summary>
    /// Sessions allowed at once (null: no cap); starts as <see cref="MockNntpOptions.MaxConnections"/>
    /// and may be changed while the server runs, as a provider changing an account's plan would.
    /// </summary>
    public int? MaxConnections
    {
        get => Volatile.Read(ref _maxConnections) is var max and > 0 ? max : null;
        set => Volatile.Write(ref _maxConnections, value ?? 0);
    }

    /// <summary>Latency, bandwidth and faults; change at runtime.</summary>
    public MockBehavior Behavior => Options.Behavior;

    public MockArticleStore Store { get; }

    public MockServerStats Stats { get; } = new();

    /// <summary>The listening port (valid after <see cref="StartAsync"/>).</summary>
    public int Port { get; private set; }

    /// <summary>The Date header of every article.</summary>
    public DateTimeOffset StartedAt { get; } = new(DateTimeOffset.UtcNow.Ticks / TimeSpan.TicksPerSecond * TimeSpan.TicksPerSecond, TimeSpan.Zero);

    /// <summary>Starts listening on 127.0.0.1:<see cref="MockNntpOptions.Port"/>.</summary>
    public Task StartAsync(CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        ObjectDisposedException.ThrowIf(_disposed != 0, this);
        if (_listener is not null)
        {
            throw new InvalidOperationException("The server is already started.");
        }
        if (Options.UseTls)
        {
            _certificate = SelfSignedCertificate.Create();
        }
        _listener = new TcpListener(IPAddress.Loopback, Options.Port);
        _listener.Start(backlog: 512);
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _acceptLoop = AcceptLoopAsync(_listener, _stopping.Token);
        return Task.CompletedTask;
    }

    /// <summary>Writes an NZB of every file in the store.</summary>
    public void WriteNzb(Stream destination, string? title = null) =>
        MockNzbWriter.Write(destination, Store.Files, title, StartedAt);

    /// <summary>Writes an NZB of every file in the store to <paramref name="path"/>.</summary>
    public void WriteNzb(string path, string? title = null)
    {
        using var file = File.Create(path);
        WriteNzb(file, title);
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }
        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener?.Stop();
        if (_acceptLoop is not null)
        {
            await _acceptLoop.ConfigureAwait(false);
        }
        await Task.WhenAll(_sessions.Values).ConfigureAwait(false);
        _certificate?.Dispose();
        _stopping.Dispose();
    }

    private async Task AcceptLoopAsync(TcpListener listener, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptSocketAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }
            var number = Interlocked.Increment(ref _connectionNumber);
            var session = ServeAsync(socket, number, cancellationToken);
            _sessions[number] = session;
            // Removed by a continuation so removal can never run before the add.
            _ = session.ContinueWith(static (_, state) => ((Action)state!)(), (Action)(() => _sessions.TryRemove(number, out _)), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }
    }

    private async Task ServeAsync(Socket socket, int number, CancellationToken cancellationToken)
    {
        await Task.Yield();
        socket.NoDelay = true;
        Stream stream = new NetworkStream(socket, ownsSocket: false);
        var slot = new MockSessionSlot(Stats);
        try
        {
            if (Behavior.Down)
            {
                // A provider that is down: the connection is reset before any greeting.
                Stats.CountRefusedWhileDown();
                socket.LingerState = new LingerOption(true, 0);
                return;
            }
            if (_certificate is not null)
            {
                var tls = new SslStream(stream, leaveInnerStreamOpen: false);
                stream = tls;
                await tls.AuthenticateAsServerAsync(new SslServerAuthenticationOptions { ServerCertificate = _certificate }, cancellationToken).ConfigureAwait(false);
            }
            if (!slot.TryTake(MaxConnections))
            {
                await stream.WriteAsync(Encoding.ASCII.GetBytes("502 too many connections\r\n"), cancellationToken).ConfigureAwait(false);
                await stream.FlushAsync(cancellationToken).ConfigureAwait(false);
                return;
            }
            var session = new MockNntpSession(socket, stream, this, number, slot);
            await using (session.ConfigureAwait(false))
            {
                await session.RunAsync(cancellationToken).ConfigureAwait(false);
            }
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException or ObjectDisposedException or System.Security.Authentication.AuthenticationException)
        {
            // A client that vanished mid-handshake or a server stopping ends only this connection.
        }
        finally
        {
            // The session normally released its place already, just before closing the socket.
            slot.Release();
            await stream.DisposeAsync().ConfigureAwait(false);
            socket.Dispose();
        }
    }
}
