using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// One authenticated NNTP session. Its holder may have up to <see cref="PipelineDepth"/>
/// operations outstanding at once; commands go out immediately and answers are matched in order.
/// Any failure that leaves the session state in doubt breaks it: <see cref="IsUsable"/> turns false
/// and stays false, and every outstanding operation fails.
/// </summary>
public interface INntpConnection : IAsyncDisposable
{
    /// <summary>The provider this session belongs to.</summary>
    string ProviderName { get; }

    /// <summary>How many commands may be in flight at once.</summary>
    int PipelineDepth { get; }

    /// <summary>False once broken; a pool must then dispose it, never lend it again.</summary>
    bool IsUsable { get; }

    /// <summary>Why the session broke (the first reason given); null while usable.</summary>
    Exception? BreakReason => null;

    /// <summary>
    /// True when the session was given up by its own side (an operation cancelled while its answer was
    /// being read, a close), not failed by the provider: nothing to hold against it.
    /// </summary>
    bool BrokenByOwner => false;

    /// <summary>
    /// Who the bytes read from now on are for (set by a lease for its holder, cleared when it goes
    /// back): every socket read adds to it. Null counts the bytes for the provider only.
    /// </summary>
    Traffic.TrafficAccount? Account
    {
        get => null;
        set { }
    }

    /// <summary>Paces the session's socket reads (a bandwidth cap), set by a lease for its holder; null reads freely.</summary>
    IReceiveThrottle? Throttle
    {
        get => null;
        set { }
    }

    /// <summary>STAT: true when the article exists (223), false on 430/423.</summary>
    Task<bool> StatAsync(string messageId, CancellationToken cancellationToken);

    /// <summary>BODY, decoded as it streams into <paramref name="target"/>; size and CRC verified.</summary>
    /// <exception cref="NntpArticleNotFoundException">430: the connection stays usable.</exception>
    /// <exception cref="YencException">The body was not valid yEnc or failed its CRC: the connection stays usable only if the article was read to its end.</exception>
    Task<YencHeader> BodyAsync(string messageId, IYencBodyTarget target, CancellationToken cancellationToken);

    /// <summary>
    /// Closes the session and completes once the provider has seen it end, so a pool may reuse its
    /// slot without the provider counting one connection too many: QUIT when idle and healthy,
    /// otherwise half-close and read to end of stream, bounded by the provider's CloseTimeout.
    /// Cancelling cuts the socket at once. Every call (and <see cref="IAsyncDisposable.DisposeAsync"/>)
    /// waits for the same close.
    /// </summary>
    ValueTask CloseAsync(CancellationToken cancellationToken) => DisposeAsync();
}
