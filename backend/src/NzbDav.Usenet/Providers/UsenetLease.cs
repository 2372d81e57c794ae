using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// A limiter permit and one pooled session, held together by a caller that pipelines its own
/// requests (up to <see cref="INntpConnection.PipelineDepth"/> in flight on <see cref="Connection"/>).
/// Disposing returns the session first and then the permit; a session that broke counts as a failure
/// of its provider's breaker.
/// </summary>
public sealed class UsenetLease : IAsyncDisposable
{
    private readonly UsenetClient _client;
    private readonly ProviderEndpoint _endpoint;
    private readonly LimiterPermit _permit;
    private readonly ConnectionLease _lease;
    private int _disposed;

    internal UsenetLease(UsenetClient client, ProviderEndpoint endpoint, LimiterPermit permit, ConnectionLease lease)
    {
        _client = client;
        _endpoint = endpoint;
        _permit = permit;
        _lease = lease;
    }

    /// <summary>The leased session.</summary>
    public INntpConnection Connection => _lease.Connection;

    /// <summary>The provider the session belongs to.</summary>
    public string ProviderName => _endpoint.Name;

    /// <summary>The limiter pool the permit counts against.</summary>
    public OperationKind Kind => _permit.Kind;

    /// <summary>
    /// For an article this lease's provider answered 430 to: tries the other providers in order under
    /// this lease's permit (no second permit is needed), with a fresh target per attempt. Providers
    /// ordered before this one are used only if a session is free at once, so lease holders never
    /// wait on each other in a cycle; a busy one makes the result unknown rather than "missing".
    /// </summary>
    /// <exception cref="ArticleMissingException">Every other provider answered 430 as well.</exception>
    /// <exception cref="ArticleFetchFailedException">No other provider delivered and one failed or was busy.</exception>
    public async Task<YencHeader> BodyFromOtherProvidersAsync(string messageId, Func<IYencBodyTarget> targetFactory, CancellationToken cancellationToken)
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        var (found, header) = await _client.BodyElsewhereAsync(_endpoint, messageId, targetFactory, cancellationToken).ConfigureAwait(false);
        if (found)
        {
            return header!;
        }

        // Every provider but this one answered 430, and this one did too (that is why we were asked).
        throw new ArticleMissingException(messageId, [_endpoint.Name, .. _client.MissingOnAll(_endpoint)]);
    }

    /// <summary>Returns the session, then the permit. Idempotent.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        if (_lease.Connection.IsUsable)
        {
            _endpoint.Breaker.OnSuccess();
        }
        else
        {
            _endpoint.Breaker.OnFailure();
        }

        try
        {
            await _lease.DisposeAsync().ConfigureAwait(false);
        }
        finally
        {
            _permit.Dispose();
        }
    }
}
