namespace NzbDav.Server.Cluster;

/// <summary>
/// The nodes of the library as this node last read them (at its heartbeat, PostgreSQL only): what the
/// dashboard shows of every node without a database query per tick.
/// </summary>
public sealed class ClusterView
{
    private IReadOnlyList<NodeView>? _nodes;

    /// <summary>Every live node, this one first; null on SQLite or before the first heartbeat.</summary>
    public IReadOnlyList<NodeView>? Nodes => Volatile.Read(ref _nodes);

    internal void Set(IReadOnlyList<NodeView> nodes) => Volatile.Write(ref _nodes, nodes);
}

/// <summary>
/// One node on the dashboard: its streams, its segment cache (memory and disk, bytes held of
/// capacity), and its lease of each provider (<c>granted</c>, sessions <c>open</c>, and the demand it
/// stated by kind), as of its last heartbeat (<c>heartbeatAgeSeconds</c> ago).
/// </summary>
public sealed record NodeView(Guid Id, string Name, string Version, bool Self, DateTime StartedAt, double HeartbeatAgeSeconds,
    int Streams, long CacheBytes, long CacheCapacity, IReadOnlyList<NodeLeaseView> Leases);

/// <summary>One node's lease of one provider.</summary>
public sealed record NodeLeaseView(string Provider, int Granted, int Open, int StreamingDemand, int QueueDemand, int HealthDemand);
