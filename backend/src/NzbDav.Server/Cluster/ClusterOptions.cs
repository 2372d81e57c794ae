namespace NzbDav.Server.Cluster;

/// <summary>The <c>Cluster</c> settings: how the nodes on one library see each other.</summary>
public sealed class ClusterOptions
{
    public const string SectionName = "Cluster";

    /// <summary>The node's name on the dashboard and in the log; the machine's name unless set.</summary>
    public string? NodeName { get; set; }

    /// <summary>How often the node writes its heartbeat (and looks for nodes that stopped writing theirs).</summary>
    public TimeSpan HeartbeatInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>A node whose last heartbeat is older than this is gone: its jobs go back to the queue.</summary>
    public TimeSpan NodeTimeout { get; set; } = TimeSpan.FromSeconds(3);

    public void Validate()
    {
        if (HeartbeatInterval < TimeSpan.FromMilliseconds(100) || HeartbeatInterval > TimeSpan.FromMinutes(1))
            throw new InvalidOperationException($"Cluster:HeartbeatInterval must be between 00:00:00.1 and 00:01:00 (is {HeartbeatInterval}).");
        if (NodeTimeout < 3 * HeartbeatInterval)
            throw new InvalidOperationException($"Cluster:NodeTimeout ({NodeTimeout}) must be at least three heartbeats ({3 * HeartbeatInterval}): a node must not be taken for gone over one late beat.");
    }
}
