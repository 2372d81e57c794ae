namespace NzbDav.Usenet.Limiting;

/// <summary>
/// A token bucket that receive loops draw on before each socket read, so a provider (or all of
/// them) sends no faster than a rate: a read that finds the bucket empty is queued and the socket
/// is not read meanwhile, and TCP's flow control slows the sender. Each read reserves
/// <see cref="Chunk"/> bytes and settles what it took once done.
/// <para>
/// When reads queue, the next one to go is chosen by <see cref="OperationKind"/> (playback before
/// ingestion before health sweeps, with a turn for a kind passed over
/// <see cref="StarvationLimit"/> times in a row, so ingestion creeps on rather than time out), and
/// within a kind round-robin over flows (one per fetch group: a stream with twenty connections
/// gets no more turns than a player with four). The lock is held only to count and to queue;
/// nothing awaits under it, and a granted read is woken without running its continuation there.
/// </para>
/// </summary>
internal sealed class BandwidthGate : IDisposable
{
    /// <summary>What one read reserves: the size of the receive buffer, the most one read takes.</summary>
    public const int Chunk = 64 * 1024;

    /// <summary>Grants a kind with waiters may be passed over before it gets one (as the connection limiter does).</summary>
    public const int StarvationLimit = 32;

    private readonly TimeProvider _time;
    private readonly Lock _lock = new();
    private readonly ITimer _timer;
    private readonly Lane[] _lanes = [new(), new(), new()];
    private readonly int[] _passedOver = new int[3];
    private long _rate;
    private double _tokens;
    private long _refilledAt;
    private int _waiting;
    private bool _armed;
    private bool _disposed;
    private long _grantsWaited;
    private long _lastQueuedAt = long.MinValue;

    public BandwidthGate(TimeProvider time)
    {
        _time = time;
        _refilledAt = time.GetTimestamp();
        _timer = time.CreateTimer(static state => ((BandwidthGate)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Bytes per second now; 0: no cap (reads never wait).</summary>
    public long Rate => Volatile.Read(ref _rate);

    /// <summary>Reads queued now.</summary>
    public int Waiting => Volatile.Read(ref _waiting);

    /// <summary>Whether a read had to queue within the last second: the cap binds, and reads are slow because of it.</summary>
    public bool IsBinding =>
        Volatile.Read(ref _rate) > 0 && _time.GetElapsedTime(Volatile.Read(ref _lastQueuedAt)) < TimeSpan.FromSeconds(1);

    /// <summary>Reads that had to wait their turn, since the start.</summary>
    public long GrantsWaited => Interlocked.Read(ref _grantsWaited);

    /// <summary>Sets the rate (null or 0: no cap, and every queued read goes at once).</summary>
    public void SetRate(long? rate)
    {
        var value = Math.Max(0, rate ?? 0);
        lock (_lock)
        {
            var now = _time.GetTimestamp();
            Refill(now);
            if (value == _rate)
            {
                return;
            }
            var wasCapped = _rate > 0;
            Volatile.Write(ref _rate, value);
            if (value == 0)
            {
                _tokens = 0;
                ReleaseAll(reserved: false);
                return;
            }
            // A new cap starts with its burst; a changed one keeps what it had (or owed).
            _tokens = wasCapped ? Math.Min(_tokens, Burst()) : Burst();
            Grant();
            Arm();
        }
    }

    /// <summary>
    /// Before a read of a session working for <paramref name="kind"/> in <paramref name="flow"/>:
    /// completes at once while the bucket has bytes and nobody queues, else when the read's turn
    /// comes. True when <see cref="Chunk"/> bytes were reserved (then <see cref="Settle"/> must follow).
    /// </summary>
    public ValueTask<bool> WaitAsync(OperationKind kind, object flow, CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _rate) == 0)
        {
            return new(false);
        }
        Waiter waiter;
        lock (_lock)
        {
            if (_rate == 0 || _disposed)
            {
                return new(false);
            }
            Refill(_time.GetTimestamp());
            if (_waiting == 0 && _tokens > 0)
            {
                _tokens -= Chunk;
                return new(true);
            }
            waiter = new Waiter(kind, flow);
            Enqueue(waiter);
            Volatile.Write(ref _lastQueuedAt, _time.GetTimestamp());
            Arm();
        }
        return waiter.WaitAsync(cancellationToken);
    }

    /// <summary>After a read that reserved: it took <paramref name="bytes"/>; the rest of the reservation goes back (or the excess is owed).</summary>
    public void Settle(int bytes)
    {
        lock (_lock)
        {
            if (_rate == 0)
            {
                return;
            }
            _tokens = Math.Min(_tokens + Chunk - bytes, Burst());
            if (_waiting > 0 && _tokens > 0)
            {
                Grant();
                Arm();
            }
        }
    }

    public void Dispose()
    {
        lock (_lock)
        {
            _disposed = true;
            ReleaseAll(reserved: false);
        }
        _timer.Dispose();
    }

    private void OnTimer()
    {
        lock (_lock)
        {
            _armed = false;
            if (_rate == 0 || _disposed)
            {
                return;
            }
            Refill(_time.GetTimestamp());
            Grant();
            Arm();
        }
    }

    // A quarter second of the rate may gather while nobody reads, so an idle link does not burst for long.
    private double Burst() => Math.Max(_rate / 4.0, 4.0 * Chunk);

    private void Refill(long now)
    {
        var elapsed = now - _refilledAt;
        _refilledAt = now;
        if (_rate > 0 && elapsed > 0)
        {
            _tokens = Math.Min(_tokens + (_rate * (double)elapsed / _time.TimestampFrequency), Burst());
        }
    }

    private void Grant()
    {
        while (_waiting > 0 && _tokens > 0)
        {
            var waiter = Dequeue();
            // Continuations run elsewhere (RunContinuationsAsynchronously): nothing runs under the lock.
            if (waiter.Release(reserved: true))
            {
                _tokens -= Chunk;
                _grantsWaited++;
            }
        }
    }

    private void Arm()
    {
        if (_armed || _waiting == 0 || _rate == 0 || _disposed)
        {
            return;
        }
        // When the bucket holds a byte again; at least a millisecond, so a deep debt is not polled.
        var seconds = Math.Max((1 - _tokens) / _rate, 0.001);
        _armed = true;
        _timer.Change(TimeSpan.FromSeconds(seconds), Timeout.InfiniteTimeSpan);
    }

    private void Enqueue(Waiter waiter)
    {
        var lane = _lanes[(int)waiter.Kind];
        if (!lane.ByFlow.TryGetValue(waiter.Flow, out var flow))
        {
            flow = new Flow(waiter.Flow);
            lane.ByFlow.Add(waiter.Flow, flow);
            lane.Flows.Enqueue(flow);
        }
        flow.Waiters.Enqueue(waiter);
        lane.Count++;
        _waiting++;
    }

    private Waiter Dequeue()
    {
        var chosen = -1;
        for (var kind = 0; kind < _lanes.Length; kind++)
        {
            if (_lanes[kind].Count == 0)
            {
                continue;
            }
            if (chosen < 0)
            {
                chosen = kind;
            }
            else if (_passedOver[kind] >= StarvationLimit)
            {
                chosen = kind;
                break;
            }
        }
        for (var kind = 0; kind < _lanes.Length; kind++)
        {
            _passedOver[kind] = kind == chosen ? 0 : _lanes[kind].Count > 0 ? _passedOver[kind] + 1 : 0;
        }
        var lane = _lanes[chosen];
        var flow = lane.Flows.Dequeue();
        var waiter = flow.Waiters.Dequeue();
        lane.Count--;
        _waiting--;
        if (flow.Waiters.Count > 0)
        {
            lane.Flows.Enqueue(flow);
        }
        else
        {
            lane.ByFlow.Remove(flow.Key);
        }
        return waiter;
    }

    private void ReleaseAll(bool reserved)
    {
        while (_waiting > 0)
        {
            Dequeue().Release(reserved);
        }
        Array.Clear(_passedOver);
    }

    private sealed class Lane
    {
        public Queue<Flow> Flows { get; } = new();

        public Dictionary<object, Flow> ByFlow { get; } = new(ReferenceEqualityComparer.Instance);

        public int Count { get; set; }
    }

    private sealed class Flow(object key)
    {
        public object Key { get; } = key;

        public Queue<Waiter> Waiters { get; } = new();
    }

    /// <summary>One queued read. Cancelled ones stay queued and are passed over when their turn comes.</summary>
    private sealed class Waiter(OperationKind kind, object flow)
    {
        private readonly TaskCompletionSource<bool> _turn = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public OperationKind Kind { get; } = kind;

        public object Flow { get; } = flow;

        public bool Release(bool reserved) => _turn.TrySetResult(reserved);

        public async ValueTask<bool> WaitAsync(CancellationToken cancellationToken)
        {
            if (!cancellationToken.CanBeCanceled)
            {
                return await _turn.Task.ConfigureAwait(false);
            }
            await using (cancellationToken.UnsafeRegister(static (state, token) => ((TaskCompletionSource<bool>)state!).TrySetCanceled(token), _turn).ConfigureAwait(false))
            {
                return await _turn.Task.ConfigureAwait(false);
            }
        }
    }
}
