using System.Threading.Channels;

namespace NzbDav.Server.Queue;

/// <summary>
/// Wakes the ingestion worker when a job is added or resumed; many notifications collapse into one.
/// The safety-net timeout runs on <paramref name="time"/>. A notification made here is also offered
/// to the other nodes of the library (<see cref="Outgoing"/>, which <c>ClusterNotifications</c> sends
/// on PostgreSQL); one that came from them wakes this node only.
/// </summary>
public sealed class QueueSignal(TimeProvider time)
{
    private readonly Channel<bool> _channel = Channel.CreateBounded<bool>(new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite });
    private readonly Channel<bool> _outgoing = Channel.CreateBounded<bool>(new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite });

    public void Notify()
    {
        _channel.Writer.TryWrite(true);
        _outgoing.Writer.TryWrite(true);
    }

    /// <summary>Another node added or freed a job: wakes this node's workers, and tells no one else.</summary>
    public void NotifyFromCluster() => _channel.Writer.TryWrite(true);

    /// <summary>The notifications to pass on to the other nodes, collapsed like the local ones.</summary>
    public ChannelReader<bool> Outgoing => _outgoing.Reader;

    /// <summary>
    /// Returns when notified (true) or after <paramref name="timeout"/> (false: a safety net against
    /// a lost wake-up).
    /// </summary>
    public async Task<bool> WaitAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var timeoutSource = new CancellationTokenSource(timeout, time);
        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, timeoutSource.Token);
        try
        {
            await _channel.Reader.ReadAsync(timer.Token);
            return true;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // Timed out: the caller rescans the queue anyway.
            return false;
        }
    }
}
