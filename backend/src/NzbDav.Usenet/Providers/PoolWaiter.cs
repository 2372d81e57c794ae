using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// A caller parked in <see cref="ProviderConnectionPool"/>. It is handed either an idle session or
/// (when <c>null</c>) a reserved slot in which it opens its own session. Continuations run
/// asynchronously so the pool can complete it under its gate.
/// </summary>
internal sealed class PoolWaiter(ProviderConnectionPool owner)
    : TaskCompletionSource<INntpConnection?>(TaskCreationOptions.RunContinuationsAsynchronously)
{
    public ProviderConnectionPool Owner { get; } = owner;

    /// <summary>Its place in the FIFO; unlinked once granted, cancelled or timed out.</summary>
    public LinkedListNode<PoolWaiter>? Node { get; set; }

    public CancellationTokenRegistration Registration { get; set; }

    public ITimer? Timeout { get; set; }
}
