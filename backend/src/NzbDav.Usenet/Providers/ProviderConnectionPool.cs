using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// The sessions of one provider. Never more than MaxConnections open, counting ones being opened;
/// sessions open lazily; idle ones are lent in FIFO order and closed after IdleTimeout; waiters
/// are served FIFO and exactly one is woken per returned session or freed slot. A caller waits at
/// most the provider's OperationTimeout in the queue, and once it has a slot at most that long again
/// while the provider refuses connections as full. A closing session holds its slot until the
/// provider has let go of it. The gate is never held across an await.
/// </summary>
public sealed partial class ProviderConnectionPool : IAsyncDisposable
{
    private static readonly TimeSpan MinSweepPeriod = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan MaxSweepPeriod = TimeSpan.FromSeconds(30);

    private readonly object _gate = new();
    private readonly Queue<IdleConnection> _idle = new();
    private readonly LinkedList<PoolWaiter> _waiters = new();
    private readonly INntpConnectionFactory _factory;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly ITimer _sweepTimer;
    private readonly ProviderMetrics? _metrics;
    private int _open;
    private int _peakOpen;
    private int _inUse;
    private bool _disposed;
    private bool _retired;
    private TaskCompletionSource? _drained;
    private UsenetProviderOptions _provider;
    private Task _sweep = Task.CompletedTask;

    /// <summary>Creates an empty pool; nothing connects until the first rent. <paramref name="metrics"/> counts refusals at connect.</summary>
    public ProviderConnectionPool(UsenetProviderOptions provider, INntpConnectionFactory factory, TimeProvider timeProvider, ILogger logger, ProviderMetrics? metrics = null)
    {
        ArgumentNullException.ThrowIfNull(provider);
        ArgumentNullException.ThrowIfNull(factory);
        ArgumentNullException.ThrowIfNull(timeProvider);
        ArgumentNullException.ThrowIfNull(logger);
        ProviderValidation.Validate(provider);
        _provider = provider;
        _factory = factory;
        _time = timeProvider;
        _logger = logger;
        _metrics = metrics;
        var period = TimeSpan.FromTicks(Math.Clamp(provider.IdleTimeout.Ticks / 2, MinSweepPeriod.Ticks, MaxSweepPeriod.Ticks));
        _sweepTimer = timeProvider.CreateTimer(static state => ((ProviderConnectionPool)state!).SweepIdle(), this, period, period);
    }

    /// <summary>The provider this pool connects to, as configured now.</summary>
    public UsenetProviderOptions Provider => Volatile.Read(ref _provider);

    /// <summary>A consistent snapshot of the pool's counts.</summary>
    public ConnectionPoolStats GetStats()
    {
        lock (_gate)
        {
            return new ConnectionPoolStats(Provider.Name, Provider.MaxConnections, Volatile.Read(ref _open),
                _idle.Count, _inUse, _waiters.Count, _peakOpen, _closing);
        }
    }

    /// <summary>
    /// Lends a session: an idle one, a new one when under the cap, or the next one freed. A provider
    /// that refuses the connection as full (400/502 greeting) is retried with backoff.
    /// </summary>
    /// <exception cref="ConnectionPoolTimeoutException">
    /// None became free within OperationTimeout, or the provider kept refusing new connections as full
    /// for OperationTimeout.
    /// </exception>
    public ValueTask<ConnectionLease> RentAsync(CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<ConnectionLease>(cancellationToken);
        }

        INntpConnection? idle = null, stale = null;
        PoolWaiter? waiter = null;
        lock (_gate)
        {
            ThrowIfClosedLocked();
            if (_waiters.Count > 0 || !TryGrabLocked(out idle, out stale))
            {
                waiter = EnqueueLocked(cancellationToken); // FIFO: never jump the queue
            }
        }

        if (waiter is not null)
        {
            return WaitAsync(waiter, cancellationToken);
        }

        return idle is not null
            ? new ValueTask<ConnectionLease>(new ConnectionLease(this, idle))
            : OpenAsync(stale, waitWhileFull: true, cancellationToken);
    }

    /// <summary>
    /// Lends a session only if one is idle or a slot is free and nobody is queued; never waits for
    /// another holder. The returned task may still be connecting; if the provider refuses the
    /// connection as full (400/502), it fails at once with <see cref="ConnectionPoolTimeoutException"/>
    /// instead of waiting for the provider.
    /// </summary>
    public bool TryRentWithoutWaiting(CancellationToken cancellationToken, out ValueTask<ConnectionLease> lease)
    {
        INntpConnection? idle, stale;
        lock (_gate)
        {
            ThrowIfClosedLocked();
            if (_waiters.Count > 0 || !TryGrabLocked(out idle, out stale))
            {
                lease = default;
                return false;
            }
        }

        lease = idle is not null
            ? new ValueTask<ConnectionLease>(new ConnectionLease(this, idle))
            : OpenAsync(stale, waitWhileFull: false, cancellationToken);
        return true;
    }

    internal ValueTask ReturnAsync(INntpConnection connection)
    {
        lock (_gate)
        {
            _inUse--;
            // A session beyond a lowered cap (not counting those already closing), or opened with an
            // older pipeline depth, is not kept.
            if (!_disposed && !_retired && connection.IsUsable && Volatile.Read(ref _open) - _closing <= Provider.MaxConnections
                && connection.PipelineDepth == Provider.PipelineDepth)
            {
                if (_waiters.First is { } node)
                {
                    _waiters.RemoveFirst();
                    _inUse++;
                    node.Value.TrySetResult(connection);
                }
                else
                {
                    _idle.Enqueue(new IdleConnection(connection, _time.GetTimestamp()));
                }

                return ValueTask.CompletedTask;
            }

            // Counted as closing now, so a session returned right after this one sees it.
            _closing++;
        }

        _ = CloseTrackedAsync(connection, releaseSlot: true, counted: true);
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// Fails waiters and closes idle sessions; closes still waiting for the provider to confirm
    /// are cut short, so this completes promptly. Lent sessions close when they come back.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        List<IdleConnection> idle;
        List<PoolWaiter> waiters;
        Task sweep;
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            (idle, waiters) = TakeIdleAndWaiters();
            sweep = _sweep;
        }

        // From here every close is cut at once (nothing will reuse the slots) and connects stop.
        await _stopping.CancelAsync().ConfigureAwait(false);
        await _sweepTimer.DisposeAsync().ConfigureAwait(false);
        foreach (var waiter in waiters)
        {
            waiter.TrySetException(PoolDisposed());
        }

        await Task.WhenAll(idle.Select(entry => CloseTrackedAsync(entry.Connection, releaseSlot: true))).ConfigureAwait(false);
        await sweep.ConfigureAwait(false);
        await AwaitClosesAsync().ConfigureAwait(false);
    }

    /// <summary>Empties the idle list and the wait queue, handing both to the caller; under <c>_gate</c>.</summary>
    private (List<IdleConnection> Idle, List<PoolWaiter> Waiters) TakeIdleAndWaiters()
    {
        List<IdleConnection> idle = [.. _idle];
        _idle.Clear();
        List<PoolWaiter> waiters = [.. _waiters];
        _waiters.Clear();
        return (idle, waiters);
    }
}
