namespace NzbDav.Usenet.Nntp;

/// <summary>The steps of opening a session, in order; TLS only when the provider uses it, login only when it has a user.</summary>
public enum NntpConnectStep
{
    Connect,
    Tls,
    Greeting,
    Login,
}

/// <summary>
/// Follows a session being opened (<see cref="NntpConnection.ConnectAsync(Providers.UsenetProviderOptions, TimeProvider, Microsoft.Extensions.Logging.ILogger, INntpConnectObserver?, CancellationToken)"/>),
/// for a caller that shows each step, as the web UI's provider test does. A step that fails has
/// been <see cref="Starting"/> and never <see cref="Done"/>; the error says why.
/// </summary>
public interface INntpConnectObserver
{
    void Starting(NntpConnectStep step);

    /// <param name="detail">What the step found: the address connected to, the TLS protocol and cipher, the greeting line, the user logged in as.</param>
    void Done(NntpConnectStep step, string detail);
}
