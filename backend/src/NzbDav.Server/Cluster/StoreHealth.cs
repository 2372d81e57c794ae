using NzbDav.Data;

namespace NzbDav.Server.Cluster;

/// <summary>What this node last heard from the library store: the node's heartbeat is the probe.</summary>
public sealed class StoreHealth(LibraryStore store, TimeProvider time)
{
    private readonly Lock _gate = new();
    private bool _registered;
    private DateTimeOffset? _failingSince;
    private string? _lastError;

    /// <summary>The node is in the library and its last contact with the store worked.</summary>
    public void Reachable()
    {
        lock (_gate)
        {
            _registered = true;
            _failingSince = null;
        }
    }

    /// <summary>The last contact with the store failed with <paramref name="error"/>.</summary>
    public void Unreachable(string error)
    {
        lock (_gate)
        {
            _failingSince ??= time.GetUtcNow();
            _lastError = error;
        }
    }

    /// <summary>The store's state for <c>/health</c> and <c>/ready</c>.</summary>
    public StoreState Current
    {
        get
        {
            lock (_gate)
            {
                if (_failingSince is { } since)
                {
                    return new StoreState(false, "unreachable", store.Description, since,
                        $"the library store ({store.Description}) cannot be reached since {since:u}: {_lastError}");
                }

                return _registered
                    ? new StoreState(true, "ok", store.Description, null, null)
                    : new StoreState(false, "starting", store.Description, null, "the node has not joined the library yet");
            }
        }
    }
}

/// <summary>The library store as <c>/health</c> shows it: ok, starting or unreachable (since when, why).</summary>
public sealed record StoreState(bool Ready, string State, string Store, DateTimeOffset? Since, string? Reason);
