namespace NzbDav.Usenet.Nntp;

/// <summary>Base of every NNTP failure. <see cref="ConnectionBroken"/> says whether the connection it came from is finished.</summary>
public abstract class NntpException(string message, bool connectionBroken, Exception? inner = null) : Exception(message, inner)
{
    /// <summary>True when the connection that raised this can no longer be used.</summary>
    public bool ConnectionBroken { get; } = connectionBroken;
}

/// <summary>430 (or 423): the provider does not have the article. The connection stays usable.</summary>
public sealed class NntpArticleNotFoundException(string messageId, string? providerName = null)
    : NntpException($"Article <{messageId}> not found{(providerName is null ? "" : $" on provider '{providerName}'")} (430)", connectionBroken: false)
{
    public string MessageId { get; } = messageId;
}

/// <summary>AUTHINFO was refused (481/482/502 after auth), or the server demanded auth we do not have (480).</summary>
public sealed class NntpAuthenticationException(string message)
    : NntpException(message, connectionBroken: true);

/// <summary>400 or 502 at greeting or mid-session: too many connections, or the service is unavailable.</summary>
public sealed class NntpServiceUnavailableException(int code, string message)
    : NntpException($"Provider unavailable ({code}): {message}", connectionBroken: true)
{
    public int Code { get; } = code;

    /// <summary>The server's own words after the code.</summary>
    public string StatusText { get; } = message;
}

/// <summary>An operation did not complete within its deadline. Distinct from the caller's cancellation.</summary>
public sealed class NntpTimeoutException(string message, Exception? inner = null)
    : NntpException(message, connectionBroken: true, inner);

/// <summary>The server said something we did not expect, or the socket failed: the connection state is unknown.</summary>
public sealed class NntpProtocolException(string message, Exception? inner = null)
    : NntpException(message, connectionBroken: true, inner)
{
    /// <summary>The server ended the session (end of stream) rather than saying something wrong.</summary>
    public bool PeerClosed { get; init; }
}
