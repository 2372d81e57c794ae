using System.Threading.Channels;

namespace NzbDav.Server.Queue;

/// <summary>
/// Wakes the ingestion worker when a job is added or resumed; many notifications collapse into one.
/// The safety-net timeout runs on <paramref name="time"/>.
/// </summary>
public sealed class QueueSignal(TimeProvider time)
{
    private readonly Channel<bool> _channel = Channel.CreateBounded<bool>(new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite });

    public void Notify() => _channel.Writer.TryWrite(true);

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
