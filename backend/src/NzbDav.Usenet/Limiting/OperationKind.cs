namespace NzbDav.Usenet.Limiting;

/// <summary>
/// What an operation is for. The numeric order is the contention priority: when capacity frees and
/// several kinds are waiting (and none is below its guarantee), the lower value is served first.
/// </summary>
public enum OperationKind
{
    /// <summary>Reads for a client that is playing or scrubbing a file right now.</summary>
    Streaming = 0,

    /// <summary>Ingestion of queued NZBs (first segments, archive headers, PAR2).</summary>
    Queue = 1,

    /// <summary>Background STAT sampling of stored releases.</summary>
    HealthCheck = 2,
}
