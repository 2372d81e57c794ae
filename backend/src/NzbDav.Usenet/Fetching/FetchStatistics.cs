namespace NzbDav.Usenet.Fetching;

/// <summary>
/// Counters of one <see cref="FetchGroup"/>: retries, straggler races and its leases. Every
/// property may be read at any time from any thread (each is one atomic read).
/// </summary>
public sealed class FetchStatistics
{
    private long _retries;
    private long _blockAllowed;
    private long _stragglerRaces;
    private long _leasesAcquired;
    private long _leaseAcquireTicks;
    private long _maxLeaseAcquireTicks;
    private int _leasesHeld;
    private long _peakLeasesHeld; // long, so one RaiseMax serves both maxima

    /// <summary>Fetches repeated after a failure (broken connection, 430, bad CRC).</summary>
    public long Retries => Interlocked.Read(ref _retries);

    /// <summary>Late requests fetched a second time on another connection.</summary>
    public long StragglerRaces => Interlocked.Read(ref _stragglerRaces);

    /// <summary>Leases taken.</summary>
    public long LeasesAcquired => Interlocked.Read(ref _leasesAcquired);

    /// <summary>Time spent waiting for leases, summed.</summary>
    public TimeSpan TotalLeaseAcquireTime => TimeSpan.FromTicks(Interlocked.Read(ref _leaseAcquireTicks));

    /// <summary>The longest single wait for a lease.</summary>
    public TimeSpan MaxLeaseAcquireTime => TimeSpan.FromTicks(Interlocked.Read(ref _maxLeaseAcquireTicks));

    /// <summary>Leases held now.</summary>
    public int LeasesHeld => Volatile.Read(ref _leasesHeld);

    /// <summary>The most leases held at once.</summary>
    public int PeakLeasesHeld => (int)Interlocked.Read(ref _peakLeasesHeld);

    /// <summary>Requests let onto block accounts (missing everywhere else, or a reader waited too long).</summary>
    public long BlockAllowed => Interlocked.Read(ref _blockAllowed);

    internal void Retried() => Interlocked.Increment(ref _retries);

    internal void AllowedBlock() => Interlocked.Increment(ref _blockAllowed);

    internal void StragglerRaced() => Interlocked.Increment(ref _stragglerRaces);

    internal void LeaseAcquired(TimeSpan waited)
    {
        Interlocked.Increment(ref _leasesAcquired);
        Interlocked.Add(ref _leaseAcquireTicks, waited.Ticks);
        RaiseMax(ref _maxLeaseAcquireTicks, waited.Ticks);
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
}
