using System.Diagnostics;

namespace NzbDav.Streaming;

/// <summary>
/// Live counters of one <see cref="BufferedSegmentStream"/>; every property may be read at any
/// time from any thread (each is one atomic read; the set is not a consistent snapshot).
/// </summary>
public sealed class StreamStatistics
{
    private long _bytesFetched;
    private long _bytesRead;
    private long _segmentsFetched;
    private long _retries;
    private long _stragglerRaces;
    private long _leasesAcquired;
    private long _leaseAcquireTicks;
    private long _maxLeaseAcquireTicks;
    private int _leasesHeld;
    private int _peakLeasesHeld;

    /// <summary>Decoded bytes received from providers (every attempt, including discarded ones).</summary>
    public long BytesFetched => Interlocked.Read(ref _bytesFetched);

    /// <summary>Bytes returned to the reader.</summary>
    public long BytesRead => Interlocked.Read(ref _bytesRead);

    /// <summary>Segments received completely with a verified CRC.</summary>
    public long SegmentsFetched => Interlocked.Read(ref _segmentsFetched);

    /// <summary>Fetches repeated after a failure (broken connection, 430, bad CRC).</summary>
    public long Retries => Interlocked.Read(ref _retries);

    /// <summary>Late head-of-line segments fetched a second time on another connection.</summary>
    public long StragglerRaces => Interlocked.Read(ref _stragglerRaces);

    /// <summary>Connection leases taken from the streaming pool.</summary>
    public long LeasesAcquired => Interlocked.Read(ref _leasesAcquired);

    /// <summary>Time spent waiting for leases, summed.</summary>
    public TimeSpan TotalLeaseAcquireTime => Stopwatch.GetElapsedTime(0, Interlocked.Read(ref _leaseAcquireTicks));

    /// <summary>The longest single wait for a lease.</summary>
    public TimeSpan MaxLeaseAcquireTime => Stopwatch.GetElapsedTime(0, Interlocked.Read(ref _maxLeaseAcquireTicks));

    /// <summary>Leases held now.</summary>
    public int LeasesHeld => Volatile.Read(ref _leasesHeld);

    /// <summary>The most leases held at once.</summary>
    public int PeakLeasesHeld => Volatile.Read(ref _peakLeasesHeld);

    internal void AddFetched(int count) => Interlocked.Add(ref _bytesFetched, count);

    internal void AddRead(int count) => Interlocked.Add(ref _bytesRead, count);

    internal void SegmentFetched() => Interlocked.Increment(ref _segmentsFetched);

    internal void Retried() => Interlocked.Increment(ref _retries);

    internal void StragglerRaced() => Interlocked.Increment(ref _stragglerRaces);

    internal void LeaseAcquired(long elapsedTimestampTicks)
    {
        Interlocked.Increment(ref _leasesAcquired);
        Interlocked.Add(ref _leaseAcquireTicks, elapsedTimestampTicks);
        RaiseMax(ref _maxLeaseAcquireTicks, elapsedTimestampTicks);
        var held = Interlocked.Increment(ref _leasesHeld);
        RaiseMax(ref _peakLeasesHeld, held);
    }

    internal void LeaseReleased() => Interlocked.Decrement(ref _leasesHeld);

    private static void RaiseMax(ref long target, long value)
    {
        var seen = Interlocked.Read(ref target);
        while (value > seen)
        {
            var previous = Interlocked.CompareExchange(ref target, value, seen);
            if (previous == seen)
            {
                return;
            }
            seen = previous;
        }
    }

    private static void RaiseMax(ref int target, int value)
    {
        var seen = Volatile.Read(ref target);
        while (value > seen)
        {
            var previous = Interlocked.CompareExchange(ref target, value, seen);
            if (previous == seen)
            {
                return;
            }
            seen = previous;
        }
    }
}
