namespace NzbDav.Streaming;

/// <summary>
/// One ceiling on read-ahead for every stream of a host: the memory budget less what the segment
/// cache may hold. Each stream claims the bytes its read-ahead spans; a claim grows into what is
/// free and always gets a small floor (a newcomer starts at once even when a greedy reader holds
/// the rest). A claim that had to be cut short puts the budget under pressure for a second, and
/// while it is, a stream above its fair share (the ceiling over the streams claiming) shrinks as
/// its reader consumes (<see cref="IsOverShare"/>), making room. So the total stays within the
/// ceiling plus the floors. Lock-free: one atomic add per change of a stream's read-ahead, which
/// happens at most once per segment consumed.
/// </summary>
public sealed class ReadAheadBudget
{
    private static readonly TimeSpan Pressure = TimeSpan.FromSeconds(1);

    private readonly Func<long> _limit;
    private readonly TimeProvider _time;
    private readonly long _pressureTicks;

    private long _claimed;
    private int _claimants;
    // Timestamp (of _time) until which the budget is under pressure; 0 = never was.
    private long _pressureUntil;

    /// <param name="limit">Bytes all streams' read-ahead may span together, read at every change.</param>
    /// <param name="time">The clock the pressure window runs on.</param>
    public ReadAheadBudget(Func<long> limit, TimeProvider time)
    {
        ArgumentNullException.ThrowIfNull(limit);
        ArgumentNullException.ThrowIfNull(time);
        _limit = limit;
        _time = time;
        _pressureTicks = (long)(Pressure.TotalSeconds * time.TimestampFrequency);
    }

    /// <summary>Bytes claimed by every stream's read-ahead now.</summary>
    public long Claimed => Volatile.Read(ref _claimed);

    /// <summary>The ceiling now.</summary>
    public long Limit => Math.Max(0, _limit());

    /// <summary>Streams holding a claim.</summary>
    public int Claimants => Volatile.Read(ref _claimants);

    /// <summary>
    /// Moves a stream's claim from <paramref name="current"/> toward <paramref name="wanted"/> bytes;
    /// returns the new claim. Shrinking is always granted; growing takes what is free, but never
    /// less than <paramref name="floor"/>; a claim cut short puts the budget under pressure.
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
            var free = Limit - Volatile.Read(ref _claimed);
            granted = current + Math.Clamp(wanted - current, 0, Math.Max(0, free));
            granted = Math.Max(granted, Math.Min(wanted, floor));
            if (granted < wanted)
                Volatile.Write(ref _pressureUntil, _time.GetTimestamp() + _pressureTicks);
        }
        Interlocked.Add(ref _claimed, granted - current);
        if (current > 0 && granted == 0)
            Interlocked.Decrement(ref _claimants);
        return granted;
    }

    /// <summary>True while another stream could not get what it asked for and this claim is above its fair share: it should shrink.</summary>
    public bool IsOverShare(long claim) =>
        Volatile.Read(ref _pressureUntil) is var until and not 0 && _time.GetTimestamp() < until && claim > Limit / Math.Max(1, Volatile.Read(ref _claimants));
}
