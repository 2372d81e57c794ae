using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// Opens <see cref="NntpConnection"/> sessions: TCP connect, optional implicit TLS, greeting, AUTHINFO.
/// With <paramref name="metrics"/>, each session counts its BODY answers under its provider.
/// </summary>
public sealed class NntpConnectionFactory(ILoggerFactory loggerFactory, UsenetMetrics? metrics = null) : INntpConnectionFactory
{
    private readonly ILogger<NntpConnection> _logger = loggerFactory.CreateLogger<NntpConnection>();

    /// <inheritdoc />
    /// <exception cref="NntpServiceUnavailableException">The greeting was 400 or 502 (too many connections, or down).</exception>
    /// <exception cref="NntpAuthenticationException">AUTHINFO was refused.</exception>
    /// <exception cref="NntpTimeoutException">Connect, TLS, greeting and login took longer than the provider's OperationTimeout.</exception>
    /// <exception cref="NntpProtocolException">The socket or TLS failed, or the server said something unexpected.</exception>
    public async Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, TimeProvider time, CancellationToken cancellationToken) =>
        await NntpConnection.ConnectAsync(provider, time, _logger, metrics?.For(provider.Name), null, cancellationToken).ConfigureAwait(false);
}
