using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

// Changes while the pool is in use: a new cap or timeouts for the same account, or retirement when
// the provider is removed, disabled or pointed at another server or account.
public sealed partial class ProviderConnectionPool
{
    /// <summary>
    /// Applies new settings for the same account (see <see cref="IsSameAccount"/>). A higher cap
    /// hands each new slot to exactly one waiter; a lower one closes idle sessions beyond it at once
    /// and lent ones as they come back, and opens nothing until the open count is under it. Sessions
    /// opened with another pipeline depth are replaced as they come back.
    /// </summary>
    public void Update(UsenetProviderOptions provider)
    {
        ArgumentNullException.ThrowIfNull(provider);
        ProviderValidation.Validate(provider);
        if (!IsSameAccount(Provider, provider))
        {
            throw new ArgumentException($"Provider '{provider.Name}' changed its server or account; retire the pool and open a new one.", nameof(provider));
        }

        List<PoolWaiter>? granted = null;
        List<INntpConnection>? surplus = null;
        lock (_gate)
        {
            if (_disposed || _retired)
            {
                return;
            }

            Volatile.Write(ref _provider, provider);
            while (_waiters.First is { } node && TryReserveSlot())
            {
                _waiters.RemoveFirst();
                (granted ??= []).Add(node.Value);
            }

            for (var remaining = _idle.Count; remaining > 0; remaining--)
            {
                var entry = _idle.Dequeue();
                if (Volatile.Read(ref _open) - _closing > provider.MaxConnections || entry.Connection.PipelineDepth != provider.PipelineDepth)
                {
                    (surplus ??= []).Add(entry.Connection);
                    _closing++;
                }
                else
                {
                    _idle.Enqueue(entry);
                }
            }
        }

        foreach (var waiter in granted ?? [])
        {
            waiter.TrySetResult(null); // a slot: the waiter opens its session in it
        }

        foreach (var connection in surplus ?? [])
        {
            _ = CloseTrackedAsync(connection, releaseSlot: true, counted: true);
        }
    }

    /// <summary>
    /// The provider is gone (removed, disabled, or now another server or account): waiters are
    /// told to ask elsewhere, idle sessions close, lent ones close when they come back, and nothing
    /// new is opened. Completes once every session is closed; the pool is then disposed.
    /// </summary>
    public async Task RetireAsync()
    {
        List<IdleConnection> idle;
        List<PoolWaiter> waiters;
        Task drained;
        lock (_gate)
        {
            if (_disposed || _retired)
            {
                return;
            }

            _retired = true;
            (idle, waiters) = TakeIdleAndWaiters();
            _drained = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            drained = Volatile.Read(ref _open) == 0 ? Task.CompletedTask : _drained.Task;
        }

        foreach (var waiter in waiters)
        {
            waiter.TrySetException(new ProviderRetiredException(Provider.Name));
        }

        foreach (var entry in idle)
        {
            CloseInBackground(entry.Connection);
        }

        await drained.ConfigureAwait(false);
        await DisposeAsync().ConfigureAwait(false);
    }

    /// <summary>True when <paramref name="next"/> reaches the same account on the same server, so live sessions stay valid.</summary>
    public static bool IsSameAccount(UsenetProviderOptions current, UsenetProviderOptions next)
    {
        ArgumentNullException.ThrowIfNull(current);
        ArgumentNullException.ThrowIfNull(next);
        return string.Equals(current.Name, next.Name, StringComparison.OrdinalIgnoreCase) && ProviderFields.All.SameAccount(current, next);
    }
}
