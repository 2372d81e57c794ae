using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Nntp;

/// <summary>Opens authenticated sessions to a provider (connect, optional TLS, greeting, AUTHINFO).</summary>
public interface INntpConnectionFactory
{
    /// <summary>
    /// A new session to <paramref name="provider"/>. Its deadlines (the connect, the watchdog of an
    /// answer that went silent, the close) run on <paramref name="time"/>: the clock of the pool that asks.
    /// </summary>
    Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, TimeProvider time, CancellationToken cancellationToken);
}
