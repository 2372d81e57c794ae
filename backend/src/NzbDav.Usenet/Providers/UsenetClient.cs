using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Fetching;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Traffic;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// The configured Usenet providers and the front door of the fetch engine. It lends leases (a
/// <see cref="GlobalOperationLimiter"/> permit plus a pooled session on the best provider) and opens
/// <see cref="FetchGroup"/>s, which own every decision about fetching: order, pipelining, failover
/// on 430 and faults, retries, stragglers. Providers can be added, changed, disabled and removed
/// while it runs (<see cref="Reconfigure"/>): settings of the same account change in place; a
/// provider that is gone stops taking work and its sessions drain and close, while groups fail over
/// to the others.
/// </summary>
public sealed partial class UsenetClient : IAsyncDisposable
{
    private readonly INntpConnectionFactory _connectionFactory;
    private readonly GlobalOperationLimiter _limiter;
    private readonly TimeProvider _time;
    private readonly ILogger<UsenetClient> _logger;
    private readonly UsenetMetrics? _metrics;
    private readonly Lock _reconfigure = new();
    private readonly List<(ProviderEndpoint Endpoint, Task Drained)> _retiring = [];
    private ProviderSet _providers = ProviderSet.Empty;
    private UsenetOptions _options;
    private readonly int[] _busyGroups = new int[3];
    private readonly int[] _shortfall = new int[3];
    private bool _disposed;

    /// <summary>
    /// Creates the client and one (lazy) pool per enabled provider. With <paramref name="metrics"/>,
    /// its pools, breakers and limiter are published there until the client is disposed.
    /// </summary>
    public UsenetClient(
        UsenetOptions options,
        INntpConnectionFactory connectionFactory,
        GlobalOperationLimiter limiter,
        TimeProvider timeProvider,
        ILogger<UsenetClient> logger,
        UsenetMetrics? metrics = null,
        IProviderQuotas? quotas = null,
        BandwidthLimiter? bandwidth = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(connectionFactory);
        ArgumentNullException.ThrowIfNull(limiter);
        ArgumentNullException.ThrowIfNull(timeProvider);
        ArgumentNullException.ThrowIfNull(logger);
        options.Validate();
        _connectionFactory = connectionFactory;
        _limiter = limiter;
        _time = timeProvider;
        _logger = logger;
        _metrics = metrics;
        Quotas = quotas;
        Bandwidth = bandwidth;
        bandwidth?.Apply(options);
        _options = options;
        _providers = new ProviderSet(options.Providers.Where(p => p.Enabled).Select(CreateEndpoint));
        metrics?.Attach(this);
    }

    /// <summary>Names of the providers in force, in try order.</summary>
    public IReadOnlyList<string> ProviderNames => Providers.Names;

    /// <summary>How many providers are in force.</summary>
    public int ProviderCount => Providers.Endpoints.Length;

    /// <summary>The most sessions the primaries allow together (all providers' when there is no primary).</summary>
    public int PrimaryCapacity => Providers.PrimaryCapacity;

    /// <summary>Providers other than block accounts, in try order.</summary>
    internal string[] RegularProviderNames => Providers.RegularNames;

    /// <summary>The block accounts, in try order.</summary>
    internal string[] BlockProviderNames => Providers.BlockNames;

    /// <summary>
    /// How long a reader may wait on an article before a block account may fetch it too (null:
    /// only for articles every other provider answered 430 for).
    /// </summary>
    public TimeSpan? BlockAccountAfter => Volatile.Read(ref _options).BlockAccountAfterMs is { } ms ? TimeSpan.FromMilliseconds(ms) : null;

    /// <summary>Tries of one article on one provider when connections break or time out.</summary>
    public int MaxAttemptsPerProvider => Volatile.Read(ref _options).MaxAttemptsPerProvider;

    /// <summary>
    /// The clock every timer, deadline and backoff of this client runs on: its pools and breakers,
    /// its sessions' watchdogs, its fetch groups' straggler races, and the streams opened over it.
    /// </summary>
    public TimeProvider Time => _time;

    /// <summary>The providers' byte allowances, checked before each lease and each article (null: none).</summary>
    public IProviderQuotas? Quotas { get; }

    /// <summary>The bandwidth caps every lease's session reads under (null: none).</summary>
    public BandwidthLimiter? Bandwidth { get; }

    /// <summary>Who the bytes read from providers were for: one account per consumer, sessions add to the one their lease names.</summary>
    public TrafficAccounts Traffic { get; } = new();

    /// <summary>The limiter every lease of this client takes its permit from.</summary>
    internal GlobalOperationLimiter Limiter => _limiter;

    private ProviderSet Providers => Volatile.Read(ref _providers);

    /// <summary>Opens a fetch group: the engine for one consumer (see <see cref="FetchGroup"/>).</summary>
    public FetchGroup OpenGroup(FetchGroupOptions options, ILogger? logger = null, FetchStatistics? statistics = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed), this);
        return new FetchGroup(this, options, logger ?? _logger, statistics);
    }

    /// <summary>
    /// BODY of one article with failover, through a one-request fetch group: every attempt decodes
    /// into a fresh target from <paramref name="targetFactory"/>, so a retry never mixes data; the
    /// header of the attempt that succeeded is returned and only its target was completed.
    /// </summary>
    /// <exception cref="ArticleMissingException">Every provider answered 430.</exception>
    /// <exception cref="ArticleFetchFailedException">No provider delivered and at least one failed otherwise.</exception>
    /// <exception cref="NoProviderAvailableException">No provider could lend a session.</exception>
    public Task<YencHeader> BodyAsync(string messageId, Func<IYencBodyTarget> targetFactory, OperationKind kind, CancellationToken cancellationToken) =>
        BodyAsync(messageId, targetFactory, kind, null, cancellationToken);

    /// <summary>As above, the bytes counted for <paramref name="account"/> (the account of <paramref name="kind"/> when null).</summary>
    public async Task<YencHeader> BodyAsync(string messageId, Func<IYencBodyTarget> targetFactory, OperationKind kind, TrafficAccount? account, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(targetFactory);
        var request = new CallRequest(messageId, ArticleCommand.Body, targetFactory);
        var (_, header) = await AskAsync(request, kind, cancellationToken, account).ConfigureAwait(false);
        return header!;
    }

    /// <summary>
    /// STAT across providers: true as soon as one has the article, false when every provider answered
    /// that it does not. When some provider could not answer, the result is unknown and this throws
    /// <see cref="ArticleFetchFailedException"/> (never report an article missing on one error).
    /// </summary>
    public async Task<bool> StatAsync(string messageId, OperationKind kind, CancellationToken cancellationToken)
    {
        var request = new CallRequest(messageId, ArticleCommand.Stat, null);
        var (found, _) = await AskAsync(request, kind, cancellationToken).ConfigureAwait(false);
        return found;
    }


    /// <summary>The first backup-only provider's breaker and pool now (why a race session may not be had), or null without one.</summary>
    public ProviderStatus? BackupSnapshot()
    {
        foreach (var e in Providers.Endpoints)
        {
            if (e.IsBackup)
            {
                return StatusOf(e);
            }
        }
        return null;
    }

    /// <summary>Whether a backup-only provider is in force (something <see cref="TryLeaseRacerAsync"/> could lend).</summary>
    public bool HasBackups => Array.Exists(Providers.Endpoints, static e => e.IsBackup);

    /// <summary>
    /// Opens sessions ahead of demand on the provider the next lease would go to (the first primary
    /// whose breaker is closed), until it has at least <paramref name="sessions"/> open. Returns at
    /// once; see <see cref="ProviderConnectionPool.Warm"/>.
    /// </summary>
    public int Warm(int sessions)
    {
        foreach (var endpoint in Providers.Endpoints)
        {
            if (endpoint.Breaker.State == CircuitState.Closed && !endpoint.IsBlock)
            {
                return endpoint.Pool.Warm(sessions);
            }
        }

        return 0;
    }

    /// <summary>Fetch groups of <paramref name="kind"/> holding or waiting for a lease now (a hint for sharing the pool fairly).</summary>
    public int BusyGroups(OperationKind kind) => Volatile.Read(ref _busyGroups[(int)kind]);

    /// <summary>A group of <paramref name="kind"/> started (+1) or stopped (−1) holding leases.</summary>
    internal void GroupBusy(OperationKind kind, int change) => Interlocked.Add(ref _busyGroups[(int)kind], change);

    /// <summary>
    /// Sessions the fetch groups of <paramref name="kind"/> would use beyond the providers' capacity
    /// now (their demand the capacity hides; a cluster node asks for it in its lease).
    /// </summary>
    public int Shortfall(OperationKind kind) => Volatile.Read(ref _shortfall[(int)kind]);

    /// <summary>A group of <paramref name="kind"/> wants <paramref name="change"/> more (or fewer) sessions than the capacity allows.</summary>
    internal void GroupShortfall(OperationKind kind, int change) => Interlocked.Add(ref _shortfall[(int)kind], change);

    /// <summary>Whether callers of <paramref name="kind"/> wait for a permit (a hint; see <see cref="GlobalOperationLimiter.HasWaiters"/>).</summary>
    public bool HasWaiters(OperationKind kind) => _limiter.HasWaiters(kind);

    /// <summary>Whether anyone but <paramref name="requester"/> waits for a permit of <paramref name="kind"/>.</summary>
    internal bool HasWaitersBesides(OperationKind kind, object requester) => _limiter.HasWaitersBesides(kind, requester);

    /// <summary>
    /// Sessions open to the provider named <paramref name="providerName"/> (counting ones opening and
    /// closing), in its pool in force and in any retired pool of that name still draining: what the
    /// provider counts against its cap from this process.
    /// </summary>
    public int OpenSessions(string providerName)
    {
        lock (_reconfigure)
        {
            var open = Providers.Find(providerName) is { } endpoint ? endpoint.Pool.GetStats().Open : 0;
            foreach (var (retired, drained) in _retiring)
            {
                if (!drained.IsCompleted && string.Equals(retired.Name, providerName, StringComparison.OrdinalIgnoreCase))
                    open += retired.Pool.GetStats().Open;
            }

            return open;
        }
    }

    /// <summary>Breaker state and pool counts of every provider in force, in try order.</summary>
    public IReadOnlyList<ProviderStatus> GetProviderStatus() => Providers.Endpoints.Select(StatusOf).ToArray();

    private static ProviderStatus StatusOf(ProviderEndpoint e)
    {
        var breaker = e.Breaker.Snapshot();
        return new(e.Name, e.Options.Role, e.Options.Priority, breaker.State, breaker.RetryAt, e.Pool.GetStats()) { Breaker = breaker };
    }

    /// <summary>
    /// Applies a new provider list and policy while streams and jobs run. A provider whose server and
    /// account are unchanged keeps its sessions and breaker: a new cap applies at once (a raise
    /// serves waiters, a cut never lets the provider see more sessions than the new cap), other
    /// settings apply to sessions opened from now on. A provider that was removed, disabled, or now
    /// points at another server or account is retired: its leases take no new work, its sessions
    /// close as they come back, and callers waiting for it ask the next provider. The limiter's
    /// budget follows the primaries' capacity, shared as <see cref="UsenetOptions.Limiter"/> says.
    /// </summary>
    /// <exception cref="ArgumentException">The options are invalid; nothing changed.</exception>
    public void Reconfigure(UsenetOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        List<ProviderEndpoint> retired = [];
        lock (_reconfigure)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            var current = Providers;
            var next = new List<ProviderEndpoint>();
            foreach (var provider in options.Providers.Where(p => p.Enabled))
            {
                if (current.Find(provider.Name) is { } existing && ProviderConnectionPool.IsSameAccount(existing.Options, provider))
                {
                    existing.Pool.Update(provider);
                    next.Add(existing);
                }
                else
                {
                    next.Add(CreateEndpoint(provider));
                }
            }

            retired.AddRange(current.Endpoints.Where(e => !next.Contains(e)));
            Volatile.Write(ref _providers, new ProviderSet(next));
            Volatile.Write(ref _options, options);
            Bandwidth?.Apply(options);
            var shares = options.LimiterOptions();
            if (shares != _limiter.Options)
            {
                // Growth wakes exactly the waiters it admits; shrinking revokes nothing held.
                _limiter.Reconfigure(shares);
            }
            foreach (var endpoint in retired)
            {
                endpoint.MarkRetired();
                _retiring.RemoveAll(static r => r.Drained.IsCompleted);
                _retiring.Add((endpoint, endpoint.Pool.RetireAsync()));
            }
        }

        UsenetLog.Reconfigured(_logger, Providers.Names.Length, string.Join(", ", Providers.Names), retired.Count);
    }

    /// <summary>Closes every pool.</summary>
    public async ValueTask DisposeAsync()
    {
        ProviderSet providers;
        Task[] retiring;
        lock (_reconfigure)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            providers = Providers;
            retiring = [.. _retiring.Select(static r => r.Drained)];
        }

        _metrics?.Detach(this);
        foreach (var endpoint in providers.Endpoints)
        {
            await endpoint.Pool.DisposeAsync().ConfigureAwait(false);
        }

        await Task.WhenAll(retiring).WaitAsync(TimeSpan.FromSeconds(5), _time).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
    }

    private async Task<(bool Found, YencHeader? Header)> AskAsync(CallRequest request, OperationKind kind, CancellationToken cancellationToken, TrafficAccount? account = null)
    {
        var group = OpenGroup(FetchGroupOptions.SingleCall(kind) with { Account = account });
        try
        {
            group.Submit(request);
            group.Wake();
            var answer = await request.Answer.WaitAsync(cancellationToken).ConfigureAwait(false);
            await group.DisposeAsync().ConfigureAwait(false);
            return answer;
        }
        catch
        {
            // The caller gave up (or the group failed): cut what is still running.
            await group.AbortAsync().ConfigureAwait(false);
            throw;
        }
    }

    private ProviderEndpoint CreateEndpoint(UsenetProviderOptions provider)
    {
        var metrics = _metrics?.For(provider.Name);
        var options = Volatile.Read(ref _options);
        return new ProviderEndpoint(
            new ProviderConnectionPool(provider, _connectionFactory, _time, _logger, metrics),
            new CircuitBreaker(provider.Name, options.BreakerFailureThreshold, options.BreakerCooldown, _time, _logger, metrics));
    }

    /// <summary>One article for a single call: the group's answer as a task.</summary>
    private sealed class CallRequest(string messageId, ArticleCommand command, Func<IYencBodyTarget>? targetFactory)
        : ArticleRequest(messageId, 0, command)
    {
        private readonly TaskCompletionSource<(bool Found, YencHeader? Header)> _answer = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task<(bool Found, YencHeader? Header)> Answer => _answer.Task;

        protected internal override bool IsWanted => !_answer.Task.IsCompleted;

        protected internal override IYencBodyTarget CreateTarget() => targetFactory!();

        protected internal override void OnFound(YencHeader? header) => _answer.TrySetResult((true, header));

        protected internal override void OnMissing(ArticleMissingException error)
        {
            if (Command == ArticleCommand.Stat)
            {
                _answer.TrySetResult((false, null));
            }
            else
            {
                _answer.TrySetException(error);
            }
        }

        protected internal override void OnFailed(Exception error) => _answer.TrySetException(error);

        protected internal override void OnCancelled() => _answer.TrySetCanceled();
    }
}
