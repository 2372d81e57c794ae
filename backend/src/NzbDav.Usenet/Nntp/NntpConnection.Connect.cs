using System.Buffers;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Text;
using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Nntp;

public sealed partial class NntpConnection
{
    /// <summary>
    /// Opens a session as the pools do (connect, TLS with the provider's certificate policy, greeting,
    /// login, all within its operation timeout on <paramref name="time"/>), telling
    /// <paramref name="observer"/> each step: for a caller that tests a provider's settings and shows
    /// what happened, without a pool. The session records no metrics.
    /// </summary>
    public static Task<NntpConnection> ConnectAsync(
        UsenetProviderOptions provider, TimeProvider time, ILogger logger, INntpConnectObserver? observer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(logger);
        return ConnectAsync(provider, time, logger, null, observer, cancellationToken);
    }

    /// <summary>Connects, layers TLS, reads the greeting and authenticates, all within the provider's operation timeout (on <paramref name="time"/>).</summary>
    internal static async Task<NntpConnection> ConnectAsync(
        UsenetProviderOptions provider, TimeProvider time, ILogger logger, ProviderMetrics? metrics, INntpConnectObserver? observer, CancellationToken cancellationToken)
    {
        Validate(provider);
        var started = Stopwatch.GetTimestamp();
        using var deadline = new CancellationTokenSource(provider.OperationTimeout, time);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, deadline.Token);
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Stream? stream = null;
        NntpConnection? connection = null;
        try
        {
            observer?.Starting(NntpConnectStep.Connect);
            await socket.ConnectAsync(provider.Host, provider.Port, linked.Token).ConfigureAwait(false);
            observer?.Done(NntpConnectStep.Connect, $"{provider.Host}:{provider.Port} ({socket.RemoteEndPoint})");
            stream = new NetworkStream(socket, ownsSocket: false);
            if (provider.UseTls)
            {
                observer?.Starting(NntpConnectStep.Tls);
                var tls = new SslStream(stream, leaveInnerStreamOpen: false);
                stream = tls;
                await tls.AuthenticateAsClientAsync(TlsOptions(provider), linked.Token).ConfigureAwait(false);
                observer?.Done(NntpConnectStep.Tls, $"{tls.SslProtocol}, {tls.NegotiatedCipherSuite}");
            }
            connection = new NntpConnection(provider, time, logger, metrics, socket, stream);
            await connection.HandshakeAsync(observer, linked.Token).ConfigureAwait(false);
            connection.Start();
            NntpLog.Connected(logger, provider.Name, provider.Host, provider.Port, provider.UseTls, (long)Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            return connection;
        }
        catch (Exception e)
        {
            if (connection is not null)
            {
                await connection._reader.CompleteAsync().ConfigureAwait(false);
            }
            if (connection is not null && e is NntpException and not NntpTimeoutException)
            {
                // The server answered and counts this session until it sees it end.
                await LetGoAfterHandshakeAsync(socket, provider.CloseTimeout, time, cancellationToken).ConfigureAwait(false);
            }
            if (stream is not null)
            {
                await DisposeQuietlyAsync(stream).ConfigureAwait(false);
            }
            socket.Dispose();
            if (e is OperationCanceledException && deadline.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
            {
                throw new NntpTimeoutException($"Connecting to '{provider.Name}' ({provider.Host}:{provider.Port}) took longer than {provider.OperationTimeout}.", e);
            }
            if (e is SocketException or IOException or AuthenticationException)
            {
                throw new NntpProtocolException($"Could not connect to '{provider.Name}' ({provider.Host}:{provider.Port}): {e.Message}", e);
            }
            throw;
        }
    }

    /// <summary>
    /// A session over a transport the caller has already connected (an in-memory duplex pipe, say):
    /// greeting and login as over a socket, then the same send and receive loops. The session owns
    /// <paramref name="transport"/> and disposes it when it closes; there is no socket to half-close
    /// or drain, so closing ends with the transport's disposal. Its deadlines run on <paramref name="time"/>.
    /// </summary>
    public static async Task<NntpConnection> OpenAsync(UsenetProviderOptions provider, Stream transport, TimeProvider time, ILogger logger, CancellationToken cancellationToken)
    {
        Validate(provider);
        ArgumentNullException.ThrowIfNull(transport);
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(logger);
        using var deadline = new CancellationTokenSource(provider.OperationTimeout, time);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, deadline.Token);
        var connection = new NntpConnection(provider, time, logger, null, null, transport);
        try
        {
            await connection.HandshakeAsync(null, linked.Token).ConfigureAwait(false);
        }
        catch
        {
            await connection._reader.CompleteAsync().ConfigureAwait(false);
            await DisposeQuietlyAsync(transport).ConfigureAwait(false);
            throw;
        }
        connection.Start();
        return connection;
    }

    private static void Validate(UsenetProviderOptions provider)
    {
        ArgumentNullException.ThrowIfNull(provider);
        ArgumentException.ThrowIfNullOrWhiteSpace(provider.Host);
        if (provider.Port is < 1 or > 65535)
        {
            throw new ArgumentOutOfRangeException(nameof(provider), $"Provider '{provider.Name}': port {provider.Port} is not a TCP port.");
        }
        if (provider.OperationTimeout <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(provider), $"Provider '{provider.Name}': OperationTimeout must be positive.");
        }
        if (provider.CloseTimeout < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(provider), $"Provider '{provider.Name}': CloseTimeout cannot be negative.");
        }
        if ((provider.User?.AsSpan().ContainsAny('\r', '\n') ?? false) || (provider.Password?.AsSpan().ContainsAny('\r', '\n') ?? false))
        {
            throw new ArgumentException($"Provider '{provider.Name}': user name and password cannot contain line breaks.", nameof(provider));
        }
    }

    [SuppressMessage("Security", "CA5359:Do not disable certificate validation",
        Justification = "Only when the provider's AllowUntrustedCertificate is set (a self-signed provider); off by default.")]
    private static SslClientAuthenticationOptions TlsOptions(UsenetProviderOptions provider) => new()
    {
        TargetHost = provider.Host,
        RemoteCertificateValidationCallback = provider.AllowUntrustedCertificate ? static (_, _, _, _) => true : null,
    };

    /// <summary>The server's greeting line (code and text), as the provider test shows it.</summary>
    public string? Greeting { get; private set; }

    private bool _readerMode;

    private async Task HandshakeAsync(INntpConnectObserver? observer, CancellationToken cancellationToken)
    {
        observer?.Starting(NntpConnectStep.Greeting);
        var greeting = await ReadStatusLineAsync(cancellationToken).ConfigureAwait(false);
        Greeting = greeting.ToString();
        switch (greeting.Code)
        {
            case 200 or 201:
                break;
            case 400 or 502:
                throw new NntpServiceUnavailableException(greeting.Code, greeting.Text);
            default:
                throw new NntpProtocolException($"Unexpected greeting from '{ProviderName}': '{greeting}'.");
        }
        // INN greets a host it also takes feeds from "(transit mode)" and answers BODY there with
        // "401 MODE-READER". MODE READER costs a round trip per new session, so it is sent only when
        // the greeting says so, or after a refused login (see AuthenticateAsync).
        if (greeting.Text.Contains("transit mode", StringComparison.OrdinalIgnoreCase))
        {
            await SwitchToReaderModeAsync(cancellationToken).ConfigureAwait(false);
        }
        observer?.Done(NntpConnectStep.Greeting, Greeting);
        if (_provider.User is not null)
        {
            observer?.Starting(NntpConnectStep.Login);
            await AuthenticateAsync(_provider.User, _provider.Password, cancellationToken).ConfigureAwait(false);
            observer?.Done(NntpConnectStep.Login, $"logged in as {_provider.User}");
        }
    }

    /// <summary>
    /// MODE READER (RFC 3977 §5.3), never pipelined. True when the server switched or was a reader
    /// already; a server without modes (500) or one wanting a login first (480) is left as it is.
    /// </summary>
    private async Task<bool> SwitchToReaderModeAsync(CancellationToken cancellationToken)
    {
        var answer = await CommandAsync("MODE READER", cancellationToken).ConfigureAwait(false);
        switch (answer.Code)
        {
            case 200 or 201:
                _readerMode = true;
                NntpLog.ReaderMode(_logger, ProviderName, answer.ToString());
                return true;
            case 502:
                throw new NntpProtocolException($"'{ProviderName}' offers no reading service to this client ({answer.Code} {answer.Text}).");
            default:
                return false;
        }
    }

    private async Task AuthenticateAsync(string user, string? password, CancellationToken cancellationToken)
    {
        var answer = await CommandAsync($"AUTHINFO USER {user}", cancellationToken).ConfigureAwait(false);
        if (answer.Code is 401 or 502 && !_readerMode && await SwitchToReaderModeAsync(cancellationToken).ConfigureAwait(false))
        {
            // A mode-switching server takes AUTHINFO only after MODE READER. Asking only after a
            // refusal keeps every other provider's login at one round trip per step.
            answer = await CommandAsync($"AUTHINFO USER {user}", cancellationToken).ConfigureAwait(false);
        }
        if (answer.Code == 381)
        {
            if (password is null)
            {
                throw new NntpAuthenticationException($"'{ProviderName}' asks for a password but none is configured.");
            }
            answer = await CommandAsync($"AUTHINFO PASS {password}", cancellationToken).ConfigureAwait(false);
        }
        switch (answer.Code)
        {
            case 281:
                return;
            case 483:
                throw new NntpAuthenticationException($"'{ProviderName}' accepts a login only over an encrypted connection ({answer.Code} {answer.Text}): turn on TLS for it (usually port 563).");
            case 481 or 482 or 502:
                throw new NntpAuthenticationException($"'{ProviderName}' refused the login ({answer.Code} {answer.Text}).");
            default:
                throw new NntpProtocolException($"Unexpected answer to AUTHINFO from '{ProviderName}': '{answer}'.");
        }
    }

    /// <summary>One command and its status line, before the loops run (greeting and login only).</summary>
    private async Task<NntpStatusLine> CommandAsync(string line, CancellationToken cancellationToken)
    {
        await _stream.WriteAsync(Encoding.UTF8.GetBytes(line + "\r\n"), cancellationToken).ConfigureAwait(false);
        await _stream.FlushAsync(cancellationToken).ConfigureAwait(false);
        return await ReadStatusLineAsync(cancellationToken).ConfigureAwait(false);
    }

    private void Start()
    {
        MarkProgress();
        _sendLoop = SendLoopAsync();
        _receiveLoop = ReceiveLoopAsync();
        StartWatchdog();
    }

    private static async ValueTask DisposeQuietlyAsync(Stream stream)
    {
        try
        {
            await stream.DisposeAsync().ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException or SocketException)
        {
            // Cleaning up after a failed connect; the original error is what matters.
        }
    }

    private async ValueTask<NntpStatusLine> ReadStatusLineAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await _reader.ReadAsync(cancellationToken).ConfigureAwait(false);
            MarkProgress();
            var buffer = result.Buffer;
            if (TryReadLine(ref buffer, out var line))
            {
                var status = NntpStatusLine.Parse(line);
                _reader.AdvanceTo(buffer.Start);
                return status;
            }
            if (buffer.Length > NntpStatusLine.MaxLength)
            {
                throw new NntpProtocolException($"'{ProviderName}' sent a status line longer than {NntpStatusLine.MaxLength} bytes.");
            }
            if (result.IsCompleted)
            {
                throw new NntpProtocolException($"'{ProviderName}' closed the connection.") { PeerClosed = true };
            }
            _reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>Takes one CRLF-terminated line off the front of <paramref name="buffer"/> (a bare LF is accepted).</summary>
    private static bool TryReadLine(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> line)
    {
        var newline = buffer.PositionOf((byte)'\n');
        if (newline is not { } end)
        {
            line = default;
            return false;
        }
        line = buffer.Slice(0, end);
        if (line.Length > 0 && line.Slice(line.Length - 1).FirstSpan[0] == (byte)'\r')
        {
            line = line.Slice(0, line.Length - 1);
        }
        buffer = buffer.Slice(buffer.GetPosition(1, end));
        return true;
    }
}
