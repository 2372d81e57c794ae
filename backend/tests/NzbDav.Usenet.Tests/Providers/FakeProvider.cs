using System.Collections.Concurrent;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>What one fake provider holds and how it misbehaves; read by <see cref="FakeConnection"/>.</summary>
internal sealed class FakeProvider(string name)
{
    private int _breakBodies;
    private int _open;
    private int _peakOpen;
    private int _connects;
    private int _bodies;

    public string Name { get; } = name;

    public ConcurrentDictionary<string, byte[]> Articles { get; } = new();

    /// <summary>Articles whose body fails its CRC check (the session stays usable).</summary>
    public ConcurrentDictionary<string, bool> Corrupt { get; } = new();

    /// <summary>Connect attempts fail with a refused socket.</summary>
    public volatile bool RefuseConnections;

    /// <summary>When set, closes wait for it, as a provider slow to notice a close would make them.</summary>
    public volatile TaskCompletionSource? CloseGate;

    /// <summary>When set, connects and bodies wait for it (lets tests hold operations in flight).</summary>
    public volatile TaskCompletionSource? Gate;

    public int OpenNow => Volatile.Read(ref _open);

    public int PeakOpen => Volatile.Read(ref _peakOpen);

    public int ConnectAttempts => Volatile.Read(ref _connects);

    /// <summary>BODY commands received, answered or not.</summary>
    public int BodyRequests => Volatile.Read(ref _bodies);

    /// <summary>Message-ids of the BODY commands received, in arrival order.</summary>
    public ConcurrentQueue<string> BodyLog { get; } = new();

    public void CountBodyRequest(string messageId)
    {
        BodyLog.Enqueue(messageId);
        Interlocked.Increment(ref _bodies);
    }

    /// <summary>The next <paramref name="count"/> bodies break the session after sending their header.</summary>
    public void BreakNextBodies(int count) => Volatile.Write(ref _breakBodies, count);

    public bool TakeBodyBreak()
    {
        int current;
        do
        {
            current = Volatile.Read(ref _breakBodies);
            if (current == 0)
            {
                return false;
            }
        }
        while (Interlocked.CompareExchange(ref _breakBodies, current - 1, current) != current);
        return true;
    }

    public void CountConnectAttempt() => Interlocked.Increment(ref _connects);

    public void Opened()
    {
        var open = Interlocked.Increment(ref _open);
        int peak;
        while (open > (peak = Volatile.Read(ref _peakOpen)) && Interlocked.CompareExchange(ref _peakOpen, open, peak) != peak)
        {
        }
    }

    public void Closed() => Interlocked.Decrement(ref _open);

    public Task WaitAtGateAsync(CancellationToken cancellationToken) =>
        Gate is { } gate ? gate.Task.WaitAsync(cancellationToken) : Task.CompletedTask;
}
