namespace NzbDav.Data.Entities;

/// <summary>A running NzbDav on this library: it writes <see cref="HeartbeatAt"/> every second and deletes the row when it stops.</summary>
public sealed class NodeRecord
{
    /// <summary>New at every start of a process.</summary>
    public Guid Id { get; set; }

    /// <summary><c>Cluster:NodeName</c>, the machine's name unless set.</summary>
    public required string Name { get; set; }

    /// <summary>The NzbDav version it runs.</summary>
    public required string Version { get; set; }

    /// <summary>UTC.</summary>
    public DateTime StartedAt { get; set; }

    /// <summary>UTC, by the node's clock: a node whose last beat is older than <c>Cluster:NodeTimeout</c> is gone.</summary>
    public DateTime HeartbeatAt { get; set; }

    /// <summary>Streams the node served at its last heartbeat (the dashboard's per-node figure).</summary>
    public int Streams { get; set; }

    /// <summary>Bytes in the node's segment cache at its last heartbeat (the cache is each node's own).</summary>
    public long CacheBytes { get; set; }

    /// <summary>The node's segment cache capacity in bytes (0: no cache).</summary>
    public long CacheCapacity { get; set; }
}
