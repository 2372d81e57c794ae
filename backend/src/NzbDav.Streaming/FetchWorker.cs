using NzbDav.Usenet.Providers;

namespace NzbDav.Streaming;

/// <summary>Where a <see cref="FetchWorker"/> is in its life.</summary>
internal enum FetchWorkerState
{
    /// <summary>Waiting for a lease from the streaming pool.</summary>
    Acquiring,

    /// <summary>Holds a lease and takes work up to its pipeline depth.</summary>
    Ready,

    /// <summary>Takes no new work; its lease goes back once its requests are done.</summary>
    Draining,

    /// <summary>Its lease was returned (or never granted).</summary>
    Closed,
}

/// <summary>
/// One connection of a stream: a lease plus the requests pipelined on it. Scheduler-owned (one
/// thread), except for the lease and error that the acquisition hands over through a queue.
/// </summary>
internal sealed class FetchWorker(long acquireStartedAt, CancellationToken stopping)
{
    /// <summary>Cancels the lease wait: the stream stops, or the lease is no longer needed.</summary>
    public CancellationTokenSource AcquireCancellation { get; } = CancellationTokenSource.CreateLinkedTokenSource(stopping);

    public FetchWorkerState State { get; set; } = FetchWorkerState.Acquiring;

    public long AcquireStartedAt { get; } = acquireStartedAt;

    /// <summary>Set by the acquisition before the worker is queued back to the scheduler.</summary>
    public UsenetLease? Lease { get; set; }

    public Exception? AcquireError { get; set; }

    public Task Acquisition { get; set; } = Task.CompletedTask;

    /// <summary>Requests of this stream outstanding on the connection.</summary>
    public int InFlight { get; set; }

    public int PipelineDepth { get; set; } = 1;

    /// <summary>When <see cref="InFlight"/> last dropped to zero.</summary>
    public long IdleSince { get; set; }

    /// <summary>The connection may still owe an answer we abandoned: close it rather than return it to the pool.</summary>
    public bool BreakOnClose { get; set; }

    public bool HasCapacity =>
        State == FetchWorkerState.Ready && InFlight < PipelineDepth && Lease!.Connection.IsUsable;
}
