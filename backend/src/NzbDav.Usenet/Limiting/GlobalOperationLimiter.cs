namespace NzbDav.Usenet.Limiting;

/// <summary>
/// One budget of concurrent operations shared by streaming, queue ingestion and health checks.
/// When capacity frees, it goes first to a kind below its guarantee, then to streaming, queue and
/// health checks in that order (FIFO within a kind); a kind holding nothing that has been passed
/// over <see cref="LimiterOptions.StarvationLimit"/> times goes before all of them. Exactly one
/// waiter is woken per unit of capacity. Thread-safe; the uncontended path does not allocate.
/// </summary>
public sealed class GlobalOperationLimiter
{
    private const int KindCount = 3;

    private readonly object _gate = new();
    private readonly LinkedList<LimiterWaiter>[] _waiters =
        [new LinkedList<LimiterWaiter>(), new LinkedList<LimiterWaiter>(), new LinkedList<LimiterWaiter>()];
    private readonly int[] _inUse = new int[KindCount];
    private readonly int[] _guarantee = new int[KindCount];
    private readonly int[] _maximum = new int[KindCount];
    private readonly int[] _passedOver = new int[KindCount];
    private readonly Stack<PermitCell> _freeCells = new();
    private LimiterOptions _options;
    private int _total;
    private long _withdrawn;

    /// <summary>Creates a limiter with <paramref name="options"/> (validated).</summary>
    public GlobalOperationLimiter(LimiterOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        _options = options;
        ApplyShares(options);
    }

    /// <summary>The options in force.</summary>
    public LimiterOptions Options
    {
        get
        {
            lock (_gate)
            {
                return _options;
            }
        }
    }

    /// <summary>
    /// Waits for a permit of <paramref name="kind"/>. Completes synchronously when capacity is free
    /// and no caller of the same kind is already waiting.
    /// </summary>
    public ValueTask<LimiterPermit> AcquireAsync(OperationKind kind, CancellationToken cancellationToken) =>
        AcquireAsync(kind, null, cancellationToken);

    /// <summary>
    /// Waits for a permit of <paramref name="kind"/> on behalf of <paramref name="requester"/>, whose
    /// own waiting <see cref="HasWaitersBesides"/> then leaves out.
    /// </summary>
    public ValueTask<LimiterPermit> AcquireAsync(OperationKind kind, object? requester, CancellationToken cancellationToken)
    {
        var index = IndexOf(kind);
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<LimiterPermit>(cancellationToken);
        }

        LimiterWaiter waiter;
        lock (_gate)
        {
            if (_waiters[index].Count == 0 && CanGrant(index))
            {
                return new ValueTask<LimiterPermit>(Grant(index));
            }

            waiter = new LimiterWaiter(this, kind, requester);
            waiter.Node = _waiters[index].AddLast(waiter);

            // Registered under the gate so a grant can always see the registration to undo it. If
            // the token was cancelled meanwhile, the callback runs here re-entrantly and removes us.
            waiter.Registration = cancellationToken.UnsafeRegister(
                static (state, token) => CancelWaiter((LimiterWaiter)state!, token), waiter);
        }

        // The waiter's own task, not an async wrapper: it is complete the moment the grant is made.
        return new ValueTask<LimiterPermit>(waiter.Task);
    }

    /// <summary>
    /// Replaces the budget. Growth wakes exactly as many waiters as the new capacity admits; shrinking
    /// revokes nothing that is held, it only delays new permits until enough are released.
    /// </summary>
    public void Reconfigure(LimiterOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        lock (_gate)
        {
            _options = options;
            ApplyShares(options);
            Dispatch();
        }
    }

    /// <summary>
    /// Whether callers of <paramref name="kind"/> are waiting for a permit. A hint read without the
    /// gate (it may be stale by the time it is acted on): holders of idle permits use it to give them
    /// back at once instead of after their idle timeout.
    /// </summary>
    public bool HasWaiters(OperationKind kind) => _waiters[IndexOf(kind)].Count > 0;

    /// <summary>
    /// Whether anyone but <paramref name="requester"/> waits for a permit of <paramref name="kind"/>.
    /// A fetch group that counted its own queued acquisitions as contention would give way to
    /// itself: cancel them, see no one waiting, ask again, and spin.
    /// </summary>
    public bool HasWaitersBesides(OperationKind kind, object requester)
    {
        var queue = _waiters[IndexOf(kind)];
        if (queue.Count == 0)
        {
            return false;
        }
        lock (_gate)
        {
            for (var node = queue.First; node is not null; node = node.Next)
            {
                if (!ReferenceEquals(node.Value.Requester, requester))
                {
                    return true;
                }
            }
            return false;
        }
    }

    /// <summary>Waits given up (cancelled) before a permit was granted, since the start.</summary>
    public long WithdrawnWaits => Interlocked.Read(ref _withdrawn);

    /// <summary>A consistent snapshot of counts.</summary>
    public LimiterStats GetStats()
    {
        lock (_gate)
        {
            return new LimiterStats(
                _options.TotalConnections, _total,
                _inUse[0], _inUse[1], _inUse[2],
                _waiters[0].Count, _waiters[1].Count, _waiters[2].Count);
        }
    }

    internal void Release(OperationKind kind, PermitCell cell)
    {
        var index = (int)kind;
        lock (_gate)
        {
            _inUse[index]--;
            _total--;
            _freeCells.Push(cell);
            Dispatch();
        }
    }

    private static void CancelWaiter(LimiterWaiter waiter, CancellationToken token)
    {
        var limiter = waiter.Owner;
        lock (limiter._gate)
        {
            var node = waiter.Node;
            if (node?.List is null)
            {
                return; // granted first: the caller owns the permit and must dispose it
            }

            var queue = limiter._waiters[(int)waiter.Kind];
            queue.Remove(node);
            if (queue.Count == 0)
            {
                limiter._passedOver[(int)waiter.Kind] = 0;
            }
            limiter._withdrawn++;
        }

        waiter.TrySetCanceled(token);
    }

    // Runs under _gate whenever capacity may have freed. TrySetResult is safe here: the waiters run
    // their continuations asynchronously, so no caller code executes while the gate is held.
    private void Dispatch()
    {
        while (_total < _options.TotalConnections)
        {
            var index = PickKind();
            if (index < 0)
            {
                return;
            }

            var queue = _waiters[index];
            var waiter = queue.First!.Value;
            queue.RemoveFirst();

            // Unregister never blocks; a callback already running will find the waiter unlinked.
            waiter.Registration.Unregister();
            waiter.TrySetResult(Grant(index));
        }
    }

    private int PickKind()
    {
        var starving = -1;
        for (var i = 0; i < KindCount; i++)
        {
            if (IsEligible(i) && _inUse[i] == 0 && _passedOver[i] >= _options.StarvationLimit
                && (starving < 0 || _passedOver[i] > _passedOver[starving]))
            {
                starving = i;
            }
        }

        if (starving >= 0)
        {
            return starving;
        }

        for (var i = 0; i < KindCount; i++)
        {
            if (IsEligible(i) && _inUse[i] < _guarantee[i])
            {
                return i;
            }
        }

        for (var i = 0; i < KindCount; i++)
        {
            if (IsEligible(i))
            {
                return i;
            }
        }

        return -1;
    }

    private bool IsEligible(int index) => _waiters[index].Count > 0 && _inUse[index] < _maximum[index];

    private bool CanGrant(int index) => _total < _options.TotalConnections && _inUse[index] < _maximum[index];

    private LimiterPermit Grant(int index)
    {
        _inUse[index]++;
        _total++;
        for (var i = 0; i < KindCount; i++)
        {
            _passedOver[i] = i == index ? 0 : IsEligible(i) ? _passedOver[i] + 1 : _passedOver[i];
        }

        var cell = _freeCells.Count > 0 ? _freeCells.Pop() : new PermitCell();
        return new LimiterPermit(this, cell, (OperationKind)index);
    }

    private void ApplyShares(LimiterOptions options)
    {
        for (var i = 0; i < KindCount; i++)
        {
            _guarantee[i] = options.GuaranteeOf((OperationKind)i);
            _maximum[i] = options.MaximumOf((OperationKind)i);
        }
    }

    private static int IndexOf(OperationKind kind) => kind switch
    {
        OperationKind.Streaming or OperationKind.Queue or OperationKind.HealthCheck => (int)kind,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown operation kind."),
    };
}
