using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Nntp;

/// <summary>Opens authenticated sessions to a provider (connect, optional TLS, greeting, AUTHINFO).</summary>
public interface INntpConnectionFactory
{
    Task<INntpConnection> ConnectAsync(UsenetProviderOptions provider, CancellationToken cancellationToken);
}
