namespace NzbDav.Streaming;

/// <summary>
/// One ceiling on read-ahead for every stream of a host: the memory budget less what the segment
/// cache may hold. Each stream claims the bytes its read-ahead spans; a claim grows into what is
/// free, and a stream below its fair share (the ceiling over the streams claiming) may always
/// grow to it, so a newcomer is never starved by a greedy reader that came first; the one over its
/// share then shrinks as its reader consumes (<see cref="IsOverShare"/>). Lock-free: one atomic
/// add per change of a stream's read-ahead, which happens at most once per segment consumed.
/// </summary>
public sealed class ReadAheadBudget
{
    private readonly Func<long> _limit;
    private long _claimed;
    private int _claimants;

    /// <param name="limit">Bytes all streams' read-ahead may span together, read at every change.</param>
    public ReadAheadBudget(Func<long> limit)
    {
        ArgumentNullException.ThrowIfNull(limit);
        _limit = limit;
    }

    /// <summary>Bytes claimed by every stream's read-ahead now.</summary>
    public long Claimed => Volatile.Read(ref _claimed);

    /// <summary>The ceiling now.</summary>
    public long Limit => Math.Max(0, _limit());

    /// <summary>Streams holding a claim.</summary>
    public int Claimants => Volatile.Read(ref _claimants);

    /// <summary>
    /// Moves a stream's claim from <paramref name="current"/> toward <paramref name="wanted"/> bytes;
    /// returns the new claim. Shrinking is always granted; growing takes what is free, or up to the
    /// fair share when the free part is smaller, but never below <paramref name="floor"/>.
    /// </summary>
    public long Claim(long current, long wanted, long floor)
    {
        if (current == 0 && wanted > 0)
            Interlocked.Increment(ref _claimants);
        long granted;
        if (wanted <= current)
        {
            granted = wanted;
        }
        else
        {
            var limit = Limit;
            var free = limit - Volatile.Read(ref _claimed);
            var fair = limit / Math.Max(1, Volatile.Read(ref _claimants));
            var room = Math.Max(free, fair - current);
            granted = current + Math.Clamp(wanted - current, 0, Math.Max(0, room));
            granted = Math.Max(granted, Math.Min(wanted, floor));
        }
        Interlocked.Add(ref _claimed, granted - current);
        if (current > 0 && granted == 0)
            Interlocked.Decrement(ref _claimants);
        return granted;
    }

    /// <summary>True when every claim together is over the ceiling and this one is above its fair share: it should shrink.</summary>
    public bool IsOverShare(long claim)
    {
        var limit = Limit;
        return Volatile.Read(ref _claimed) > limit && claim > limit / Math.Max(1, Volatile.Read(ref _claimants));
    }
}
