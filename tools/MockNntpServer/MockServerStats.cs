namespace NzbDav.MockNntp;

/// <summary>Counters a test or benchmark can read while the server runs. Thread-safe.</summary>
public sealed class MockServerStats
{
    private readonly long[] _commands = new long[Enum.GetValues<MockCommandKind>().Length];
    private int _current;
    private int _peak;
    private long _total;
    private long _rejected;
    private long _bytesSent;
    private long _received;
    private long _refusedWhileDown;
    private long _droppedByDown;

    /// <summary>Sessions open now (rejected 502 connections are not counted).</summary>
    public int CurrentConnections => Volatile.Read(ref _current);

    /// <summary>Most sessions ever open at once.</summary>
    public int PeakConnections => Volatile.Read(ref _peak);

    /// <summary>Sessions accepted since start.</summary>
    public long TotalConnections => Interlocked.Read(ref _total);

    /// <summary>Connections refused with 502 because of the connection limit.</summary>
    public long RejectedConnections => Interlocked.Read(ref _rejected);

    /// <summary>Connections reset at once because the server was <see cref="MockBehavior.Down"/>.</summary>
    public long RefusedWhileDown => Interlocked.Read(ref _refusedWhileDown);

    /// <summary>Open sessions cut because the server went <see cref="MockBehavior.Down"/>.</summary>
    public long DroppedByDown => Interlocked.Read(ref _droppedByDown);

    /// <summary>Bytes written to clients, all sessions.</summary>
    public long BytesSent => Interlocked.Read(ref _bytesSent);

    /// <summary>Command lines received (counted on arrival, before their latency has passed).</summary>
    public long CommandsReceived => Interlocked.Read(ref _received);

    /// <summary>How many commands of <paramref name="kind"/> were answered.</summary>
    public long GetCommandCount(MockCommandKind kind) => Interlocked.Read(ref _commands[(int)kind]);

    internal bool TryOpen(int? limit)
    {
        while (true)
        {
            var current = Volatile.Read(ref _current);
            if (limit is { } max && current >= max)
            {
                Interlocked.Increment(ref _rejected);
                return false;
            }
            if (Interlocked.CompareExchange(ref _current, current + 1, current) == current)
            {
                Interlocked.Increment(ref _total);
                RaisePeak(current + 1);
                return true;
            }
        }
    }

    internal void Close() => Interlocked.Decrement(ref _current);

    internal void CountCommand(MockCommandKind kind) => Interlocked.Increment(ref _commands[(int)kind]);

    internal void CountRefusedWhileDown() => Interlocked.Increment(ref _refusedWhileDown);

    internal void CountDroppedByDown() => Interlocked.Increment(ref _droppedByDown);

    internal void CountReceived() => Interlocked.Increment(ref _received);

    internal void AddBytesSent(long count) => Interlocked.Add(ref _bytesSent, count);

    private void RaisePeak(int value)
    {
        var peak = Volatile.Read(ref _peak);
        while (value > peak)
        {
            var seen = Interlocked.CompareExchange(ref _peak, value, peak);
            if (seen == peak)
            {
                return;
            }
            peak = seen;
        }
    }
}
