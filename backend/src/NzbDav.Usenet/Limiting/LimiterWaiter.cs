namespace NzbDav.Usenet.Limiting;

/// <summary>
/// One caller parked in <see cref="GlobalOperationLimiter"/>. Continuations run asynchronously so the
/// limiter can complete it while holding its gate without running the caller's code there.
/// </summary>
internal sealed class LimiterWaiter(GlobalOperationLimiter owner, OperationKind kind, object? requester)
    : TaskCompletionSource<LimiterPermit>(TaskCreationOptions.RunContinuationsAsynchronously)
{
    public GlobalOperationLimiter Owner { get; } = owner;

    public OperationKind Kind { get; } = kind;

    /// <summary>Who waits (a fetch group), so it can tell others' waiting from its own; null when anonymous.</summary>
    public object? Requester { get; } = requester;

    /// <summary>Its place in its kind's queue; unlinked (List == null) once granted or cancelled.</summary>
    public LinkedListNode<LimiterWaiter>? Node { get; set; }

    /// <summary>The caller's cancellation hook, undone when the waiter is granted.</summary>
    public CancellationTokenRegistration Registration { get; set; }
}
