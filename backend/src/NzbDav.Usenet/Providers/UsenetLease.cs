using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// A limiter permit and one pooled session, held together by a caller that pipelines its own
/// requests (up to <see cref="INntpConnection.PipelineDepth"/> in flight on <see cref="Connection"/>).
/// Disposing returns the session first and then the permit; a session that broke counts as a failure
/// of its provider's breaker.
/// </summary>
public sealed class UsenetLease : IAsyncDisposable
{
    private readonly ProviderEndpoint _endpoint;
    private readonly LimiterPermit _permit;
    private readonly ConnectionLease _lease;
    private readonly Traffic.IProviderQuotas? _quotas;
    private int _disposed;

    internal UsenetLease(ProviderEndpoint endpoint, LimiterPermit permit, ConnectionLease lease, Traffic.TrafficAccount? account, Traffic.IProviderQuotas? quotas = null, IReceiveThrottle? throttle = null)
    {
        _endpoint = endpoint;
        _quotas = quotas;
        _permit = permit;
        _lease = lease;
        // Everything the session reads while leased is this holder's traffic.
        lease.Connection.Account = account;
        lease.Connection.Throttle = throttle;
    }

    /// <summary>The leased session.</summary>
    public INntpConnection Connection => _lease.Connection;

    /// <summary>The provider the session belongs to.</summary>
    public string ProviderName => _endpoint.Name;

    /// <summary>The session is on a block account (see <see cref="ProviderRole.Block"/>).</summary>
    public bool IsBlock => _endpoint.IsBlock;

    /// <summary>The limiter pool the permit counts against.</summary>
    public OperationKind Kind => _permit.Kind;

    /// <summary>
    /// The provider was removed, disabled or re-pointed since the lease was taken, or it reached its
    /// quota: finish what is in flight, send nothing new, and give the lease back. Asked before each
    /// article is sent on the session.
    /// </summary>
    public bool IsRetired => _endpoint.IsRetired || _quotas?.Exhausted(_endpoint.Name) is not null;

    /// <summary>
    /// The provider is close to an allowance: less is left than every session of it could have
    /// asked for with full pipelines (an article counted as 1 MiB). Then each session has one
    /// article out at a time, so the provider sends at most one article per session beyond it.
    /// </summary>
    public bool IsNearQuota =>
        _quotas is { } quotas && quotas.Headroom(_endpoint.Name) < (long)_endpoint.Options.MaxConnections * Math.Max(1, _endpoint.Options.PipelineDepth) * NearQuotaArticleBytes;

    private const long NearQuotaArticleBytes = 1024 * 1024;

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
        else if (_lease.Connection.BrokenByOwner)
        {
            // A player that seeks or stops cancels reads mid-answer: that says nothing about the provider.
            _endpoint.Breaker.OnNeutral();
        }
        else
        {
            _endpoint.Fail(_lease.Connection.BreakReason);
        }

        _lease.Connection.Account = null;
        _lease.Connection.Throttle = null;
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
