using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// Fetches articles across all configured providers. Each operation first takes a permit from the
/// <see cref="GlobalOperationLimiter"/>, then tries providers in order (primaries by priority, then
/// backup-only ones): a 430 moves on to the next provider, a broken connection or timeout is retried
/// on a fresh session (<see cref="UsenetOptions.MaxAttemptsPerProvider"/>) and then moves on, and a
/// provider that keeps failing is skipped by its circuit breaker. While an operation waits for or
/// talks to one provider it holds no session of another, so permits can never deadlock on pools.
/// </summary>
public sealed partial class UsenetClient : IAsyncDisposable
{
    private readonly ProviderEndpoint[] _endpoints;
    private readonly UsenetOptions _options;
    private readonly GlobalOperationLimiter _limiter;
    private readonly ILogger<UsenetClient> _logger;
    private readonly UsenetMetrics? _metrics;

    /// <summary>
    /// Creates the client and one (lazy) pool per provider. With <paramref name="metrics"/>, its pools,
    /// breakers and limiter are published there until the client is disposed.
    /// </summary>
    public UsenetClient(
        UsenetOptions options,
        INntpConnectionFactory connectionFactory,
        GlobalOperationLimiter limiter,
        TimeProvider timeProvider,
        ILogger<UsenetClient> logger,
        UsenetMetrics? metrics = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(connectionFactory);
        ArgumentNullException.ThrowIfNull(limiter);
        ArgumentNullException.ThrowIfNull(timeProvider);
        ArgumentNullException.ThrowIfNull(logger);
        options.Validate();
        _options = options;
        _limiter = limiter;
        _logger = logger;
        _metrics = metrics;
        _endpoints = options.Providers
            .OrderBy(p => p.Role == ProviderRole.Primary ? 0 : 1)
            .ThenBy(p => p.Priority)
            .Select((provider, order) => new ProviderEndpoint(
                order,
                provider,
                new ProviderConnectionPool(provider, connectionFactory, timeProvider, logger, metrics?.For(provider.Name)),
                new CircuitBreaker(provider.Name, options.BreakerFailureThreshold, options.BreakerCooldown, timeProvider, logger, metrics?.For(provider.Name))))
            .ToArray();
        metrics?.Attach(this);
    }

    /// <summary>
    /// BODY with failover. Every attempt decodes into a fresh target from
    /// <paramref name="targetFactory"/>, so a retry after a partly received body never mixes data;
    /// the header of the attempt that succeeded is returned and only its target was completed.
    /// </summary>
    /// <exception cref="ArticleMissingException">Every provider asked answered 430.</exception>
    /// <exception cref="ArticleFetchFailedException">No provider delivered and at least one failed otherwise.</exception>
    public async Task<YencHeader> BodyAsync(string messageId, Func<IYencBodyTarget> targetFactory, OperationKind kind, CancellationToken cancellationToken)
    {
        ValidateMessageId(messageId);
        ArgumentNullException.ThrowIfNull(targetFactory);
        using var permit = await _limiter.AcquireAsync(kind, cancellationToken).ConfigureAwait(false);
        var (found, header) = await FailoverAsync(messageId, BodyAttempt(messageId, targetFactory), canRetry: null, exclude: null, cancellationToken).ConfigureAwait(false);
        return found ? header! : throw new ArticleMissingException(messageId, MissingOnAll(exclude: null));
    }

    /// <summary>
    /// BODY with failover into one caller-owned target. Another session or provider is tried only
    /// while the target has received nothing (430s and failures before the yEnc header); once data
    /// has flowed a failure ends the call with <see cref="ArticleFetchFailedException"/>. Use the
    /// factory overload when the caller can supply a fresh target per attempt.
    /// </summary>
    public async Task<YencHeader> BodyAsync(string messageId, IYencBodyTarget target, OperationKind kind, CancellationToken cancellationToken)
    {
        ValidateMessageId(messageId);
        ArgumentNullException.ThrowIfNull(target);
        var tracking = new StartTrackingTarget(target);
        using var permit = await _limiter.AcquireAsync(kind, cancellationToken).ConfigureAwait(false);
        var (found, header) = await FailoverAsync(messageId, BodyAttempt(messageId, () => tracking), () => !tracking.Started, exclude: null, cancellationToken).ConfigureAwait(false);
        return found ? header! : throw new ArticleMissingException(messageId, MissingOnAll(exclude: null));
    }

    /// <summary>
    /// STAT across providers: true as soon as one has the article, false when every provider answered
    /// that it does not. When some provider could not answer, the result is unknown and this throws
    /// <see cref="ArticleFetchFailedException"/> (never report an article missing on one error).
    /// </summary>
    public async Task<bool> StatAsync(string messageId, OperationKind kind, CancellationToken cancellationToken)
    {
        ValidateMessageId(messageId);
        using var permit = await _limiter.AcquireAsync(kind, cancellationToken).ConfigureAwait(false);
        var (found, _) = await FailoverAsync(messageId, StatAttempt(messageId), canRetry: null, exclude: null, cancellationToken).ConfigureAwait(false);
        return found;
    }

    /// <summary>
    /// A permit of <paramref name="kind"/> plus a session on the best available provider (the first
    /// primary with a session ready or a free slot; otherwise the next one freed on the first usable
    /// primary; backup-only providers only while every primary is cooling off).
    /// </summary>
    /// <exception cref="NoProviderAvailableException">Every provider is cooling off or failed to connect.</exception>
    public async ValueTask<UsenetLease> AcquireAsync(OperationKind kind, CancellationToken cancellationToken)
    {
        var permit = await _limiter.AcquireAsync(kind, cancellationToken).ConfigureAwait(false);
        try
        {
            var (endpoint, lease) = await LeaseBestAsync(cancellationToken).ConfigureAwait(false);
            return new UsenetLease(this, endpoint, permit, lease);
        }
        catch
        {
            permit.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Opens sessions ahead of demand on the provider the next lease would go to (the first primary
    /// whose breaker is closed), until it has at least <paramref name="sessions"/> open. Returns at
    /// once; see <see cref="ProviderConnectionPool.Warm"/>.
    /// </summary>
    public int Warm(int sessions)
    {
        foreach (var endpoint in _endpoints)
        {
            if (endpoint.Breaker.State == CircuitState.Closed)
            {
                return endpoint.Pool.Warm(sessions);
            }
        }

        return 0;
    }

    /// <summary>Whether callers of <paramref name="kind"/> wait for a permit (a hint; see <see cref="GlobalOperationLimiter.HasWaiters"/>).</summary>
    public bool HasWaiters(OperationKind kind) => _limiter.HasWaiters(kind);

    /// <summary>Breaker state and pool counts of every provider, in try order.</summary>
    public IReadOnlyList<ProviderStatus> GetProviderStatus() =>
        _endpoints.Select(e => new ProviderStatus(e.Name, e.Options.Role, e.Options.Priority, e.Breaker.State, e.Breaker.RetryAt, e.Pool.GetStats())).ToArray();

    /// <summary>The limiter every operation of this client takes its permit from.</summary>
    internal GlobalOperationLimiter Limiter => _limiter;

    /// <summary>Closes every pool.</summary>
    public async ValueTask DisposeAsync()
    {
        _metrics?.Detach(this);
        foreach (var endpoint in _endpoints)
        {
            await endpoint.Pool.DisposeAsync().ConfigureAwait(false);
        }
    }

    internal Task<(bool Found, YencHeader? Header)> BodyElsewhereAsync(
        ProviderEndpoint exclude, string messageId, Func<IYencBodyTarget> targetFactory, CancellationToken cancellationToken)
    {
        ValidateMessageId(messageId);
        ArgumentNullException.ThrowIfNull(targetFactory);
        return FailoverAsync(messageId, BodyAttempt(messageId, targetFactory), canRetry: null, exclude, cancellationToken);
    }

    internal IReadOnlyList<string> MissingOnAll(ProviderEndpoint? exclude) =>
        _endpoints.Where(e => e != exclude).Select(e => e.Name).ToArray();

    private static Func<INntpConnection, CancellationToken, Task<(bool, YencHeader?)>> BodyAttempt(string messageId, Func<IYencBodyTarget> targetFactory) =>
        async (connection, ct) => (true, await connection.BodyAsync(messageId, targetFactory(), ct).ConfigureAwait(false));

    private static Func<INntpConnection, CancellationToken, Task<(bool, bool)>> StatAttempt(string messageId) =>
        async (connection, ct) =>
        {
            var exists = await connection.StatAsync(messageId, ct).ConfigureAwait(false);
            return (exists, exists);
        };

    private static void ValidateMessageId(string messageId)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(messageId);
        if (messageId.AsSpan().ContainsAny('\r', '\n'))
        {
            throw new ArgumentException($"Message-id '{messageId.ReplaceLineEndings(" ")}' contains a line break.", nameof(messageId));
        }
    }
}
