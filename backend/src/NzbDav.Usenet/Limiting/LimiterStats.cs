namespace NzbDav.Usenet.Limiting;

/// <summary>A consistent snapshot of a <see cref="GlobalOperationLimiter"/>.</summary>
public readonly record struct LimiterStats(
    int Capacity,
    int InUse,
    int StreamingInUse,
    int QueueInUse,
    int HealthCheckInUse,
    int StreamingWaiting,
    int QueueWaiting,
    int HealthCheckWaiting)
{
    /// <summary>Permits currently held for <paramref name="kind"/>.</summary>
    public int InUseOf(OperationKind kind) => kind switch
    {
        OperationKind.Streaming => StreamingInUse,
        OperationKind.Queue => QueueInUse,
        OperationKind.HealthCheck => HealthCheckInUse,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown operation kind."),
    };

    /// <summary>Callers currently waiting for a permit of <paramref name="kind"/>.</summary>
    public int WaitingOf(OperationKind kind) => kind switch
    {
        OperationKind.Streaming => StreamingWaiting,
        OperationKind.Queue => QueueWaiting,
        OperationKind.HealthCheck => HealthCheckWaiting,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Unknown operation kind."),
    };
}
