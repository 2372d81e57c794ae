using NzbDav.Data;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Cluster;

/// <summary>
/// This node's provider leases as they stand: how many sessions it may hold to each provider. On
/// PostgreSQL every node's pools are capped at its leases (<see cref="Effective"/>), which
/// <see cref="ConnectionLeases"/> keeps in step with the cluster; on SQLite one node owns the whole
/// cap and nothing is leased.
/// </summary>
public sealed class ProviderLeaseState(LibraryStore store)
{
    private readonly Lock _gate = new();
    private Dictionary<string, int> _grants = new(StringComparer.OrdinalIgnoreCase);
    private TaskCompletionSource _stepRequested = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Whether provider sessions are leased from the cluster (the library is in PostgreSQL).</summary>
    public bool Leasing => store.Provider == StoreProvider.Postgres;

    /// <summary>Raised after a lease changed; the pools are capped anew (see <see cref="Effective"/>).</summary>
    public event Action? Changed;

    /// <summary>The node's leases by provider name (empty until its first lease step).</summary>
    public IReadOnlyDictionary<string, int> Grants
    {
        get
        {
            lock (_gate)
                return new Dictionary<string, int>(_grants, StringComparer.OrdinalIgnoreCase);
        }
    }

    /// <summary>Sessions this node may hold to <paramref name="provider"/>: its lease, or 0 before it has one.</summary>
    public int Granted(string provider)
    {
        lock (_gate)
            return _grants.GetValueOrDefault(provider);
    }

    /// <summary>Sets the leases of the providers in <paramref name="grants"/>; raises <see cref="Changed"/> once if any moved.</summary>
    public void Set(IReadOnlyDictionary<string, int> grants)
    {
        ArgumentNullException.ThrowIfNull(grants);
        var changed = false;
        lock (_gate)
        {
            foreach (var (provider, granted) in grants)
            {
                if (_grants.GetValueOrDefault(provider, -1) != granted)
                {
                    var next = new Dictionary<string, int>(_grants, StringComparer.OrdinalIgnoreCase) { [provider] = granted };
                    _grants = next;
                    changed = true;
                }
            }
        }

        if (changed)
            Changed?.Invoke();
    }

    /// <summary>
    /// The provider settings this node runs on: each provider's cap is the smaller of its setting and
    /// the node's lease, and a provider without a lease is off on this node. Limiter shares that no
    /// longer fit the leased budget fall back to the defaults for it. Unchanged on SQLite.
    /// </summary>
    public UsenetOptions Effective(UsenetOptions configured)
    {
        ArgumentNullException.ThrowIfNull(configured);
        if (!Leasing)
            return configured;
        Dictionary<string, int> grants;
        lock (_gate)
            grants = _grants;
        var providers = configured.Providers.Select(p =>
        {
            if (!p.Enabled)
                return p;
            var lease = grants.GetValueOrDefault(p.Name);
            return lease <= 0 ? p with { Enabled = false } : p with { MaxConnections = Math.Min(p.MaxConnections, lease) };
        }).ToList();
        var effective = configured with { Providers = providers };
        try
        {
            effective.LimiterOptions().Validate();
            return effective;
        }
        catch (ArgumentException)
        {
            return effective with { Limiter = new() };
        }
    }

    /// <summary>Why the node cannot serve for want of sessions: providers are set up but it holds no lease on any; null otherwise.</summary>
    public string? NotReadyReason(UsenetOptions configured)
    {
        ArgumentNullException.ThrowIfNull(configured);
        if (!Leasing || !configured.Providers.Any(p => p.Enabled))
            return null;
        lock (_gate)
        {
            return _grants.Values.Any(g => g > 0)
                ? null
                : "the node holds no provider connections: the providers' caps are all leased to other nodes, or its first lease step has not run";
        }
    }

    /// <summary>Asks for a lease step now (a setting changed, another node asked for a rebalance).</summary>
    public void RequestStep()
    {
        TaskCompletionSource requested;
        lock (_gate)
            requested = _stepRequested;
        requested.TrySetResult();
    }

    /// <summary>Completes at the next <see cref="RequestStep"/> after this call.</summary>
    internal Task StepRequested
    {
        get
        {
            lock (_gate)
            {
                if (_stepRequested.Task.IsCompleted)
                    _stepRequested = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                return _stepRequested.Task;
            }
        }
    }
}
