namespace NzbDav.Data.Entities;

/// <summary>
/// How many sessions one node may hold open to one provider (its lease), and what it asked for at
/// its last step. The leases of a provider never add up to more than its cap: a node raises its own
/// only into headroom nobody holds and lowers it only once its sessions are down to the new figure.
/// The row goes with its node's (a node that stops beating loses its leases with its jobs).
/// </summary>
public sealed class ProviderLeaseRecord
{
    public Guid NodeId { get; set; }

    /// <summary>The provider's name, as in the settings.</summary>
    public required string Provider { get; set; }

    /// <summary>Sessions the node may hold open (counting ones opening and closing).</summary>
    public int Granted { get; set; }

    /// <summary>Sessions the node's streams held or waited for at its last step.</summary>
    public int StreamingDemand { get; set; }

    /// <summary>Sessions the node's ingestion held or waited for at its last step.</summary>
    public int QueueDemand { get; set; }

    /// <summary>Sessions the node's health checks held or waited for at its last step.</summary>
    public int HealthDemand { get; set; }

    /// <summary>Sessions open at its last step.</summary>
    public int Open { get; set; }

    /// <summary>UTC, by the node's clock.</summary>
    public DateTime UpdatedAt { get; set; }
}
