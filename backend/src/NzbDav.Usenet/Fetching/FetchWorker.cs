using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

/// <summary>Where a <see cref="FetchWorker"/> is in its life.</summary>
internal enum FetchWorkerState
{
    /// <summary>Waiting for a lease.</summary>
    Acquiring,

    /// <summary>Holds a lease and takes work up to its pipeline depth.</summary>
    Ready,

    /// <summary>Takes no new work; its lease goes back once its requests are done.</summary>
    Draining,

    /// <summary>Its lease was returned (or never granted).</summary>
    Closed,
}

/// <summary>
/// One connection of a <see cref="FetchGroup"/>: a lease plus the requests pipelined on it. Owned by
/// the group's loop, except for the lease and error the acquisition hands over through a queue and
/// the progress time that receive loops write.
/// </summary>
internal sealed class FetchWorker(TimeProvider time, long acquireStartedAt, IReadOnlyList<string>? avoid, CancellationToken stopping, bool isRacer = false, bool isBlock = false)
{
    private long _lastProgressAt;

    /// <summary>The group's clock, which every timestamp of the worker comes from.</summary>
    public TimeProvider Time { get; } = time;

    /// <summary>Cancels the lease wait: the group stops, or the lease is no longer needed.</summary>
    public CancellationTokenSource AcquireCancellation { get; } = CancellationTokenSource.CreateLinkedTokenSource(stopping);

    public FetchWorkerState State { get; set; } = FetchWorkerState.Acquiring;

    public long AcquireStartedAt { get; } = acquireStartedAt;

    /// <summary>Providers this acquisition was told to avoid (a request none of the group's providers could serve).</summary>
    public IReadOnlyList<string>? Avoid { get; } = avoid;

    /// <summary>Set by the acquisition before the worker is queued back to the group.</summary>
    public UsenetLease? Lease { get; set; }

    public Exception? AcquireError { get; set; }

    /// <summary>
    /// A backup session taken only to race late requests (<see cref="Providers.UsenetClient.TryLeaseRacerAsync"/>):
    /// it takes no ordinary work, counts toward no cap of the group, and goes back once idle.
    /// </summary>
    public bool IsRacer { get; } = isRacer;

    /// <summary>
    /// A block-account session (<see cref="Providers.ProviderRole.Block"/>): it serves only requests
    /// the group allowed onto block accounts, counts toward no cap of the group, and goes back as
    /// soon as none of those waits.
    /// </summary>
    public bool IsBlock { get; } = isBlock;

    public Task Acquisition { get; set; } = Task.CompletedTask;

    /// <summary>Requests outstanding on the connection.</summary>
    public int InFlight { get; set; }

    public int PipelineDepth { get; set; } = 1;

    /// <summary>When <see cref="InFlight"/> last dropped to zero.</summary>
    public long IdleSince { get; set; }

    /// <summary>When the connection last delivered anything (<see cref="Time"/> timestamp); written by receive loops.</summary>
    public long LastProgressAt => Volatile.Read(ref _lastProgressAt);

    /// <summary>The connection may still owe an answer we abandoned: close it rather than return it to the pool.</summary>
    public bool BreakOnClose { get; set; }

    public string? ProviderName => Lease?.ProviderName;

    public bool HasCapacity =>
        State == FetchWorkerState.Ready && InFlight < PipelineDepth && Lease!.Connection.IsUsable && !Lease.IsRetired && (InFlight == 0 || !Lease.IsNearQuota);

    public void MarkProgress() => Volatile.Write(ref _lastProgressAt, Time.GetTimestamp());

    /// <summary>As <see cref="MarkProgress()"/>, with a timestamp the caller has just read.</summary>
    public void MarkProgress(long timestamp) => Volatile.Write(ref _lastProgressAt, timestamp);
}
