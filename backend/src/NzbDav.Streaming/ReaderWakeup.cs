using NzbDav.Usenet.Fetching;

namespace NzbDav.Streaming;

/// <summary>
/// The one way news travels from the receive loops to a stream's reader: the reader says which
/// segment it waits for and parks on the signal; a ticket that changes sets the signal only if it is
/// that segment. Nothing else of the stream is reachable from the receive side.
/// </summary>
internal sealed class ReaderWakeup
{
    private int _waitingFor = -1;

    public AsyncSignal Signal { get; } = new();

    /// <summary>The reader is about to park until segment <paramref name="index"/> changes (-1: not waiting).</summary>
    public void WaitFor(int index) => Interlocked.Exchange(ref _waitingFor, index);

    public void StopWaiting() => Volatile.Write(ref _waitingFor, -1);

    /// <summary>Segment <paramref name="index"/> changed; wakes the reader if it waits for it.</summary>
    public void Notify(int index)
    {
        if (Volatile.Read(ref _waitingFor) == index)
        {
            Signal.Set();
        }
    }
}
