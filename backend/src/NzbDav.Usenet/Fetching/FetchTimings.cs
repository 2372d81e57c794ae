namespace NzbDav.Usenet.Fetching;

/// <summary>
/// Medians of the last few fetches' time to first byte and total time, plus the fastest first byte
/// seen (the latency floor), in timestamp ticks of the group's clock (<paramref name="time"/>).
/// Written by the group's loop only; the medians are published for readers.
/// </summary>
internal sealed class FetchTimings(TimeProvider time)
{
    private const int Window = 32;

    private readonly long[] _firstByte = new long[Window];
    private readonly long[] _total = new long[Window];
    private readonly long[] _scratch = new long[Window];
    private int _count;
    private long _medianFirstByte = -1;
    private long _medianTotal = -1;

    /// <summary>Fetches recorded so far (saturates at no particular value; only "enough yet?" matters).</summary>
    public int Count => _count;

    /// <summary>Fastest time to first byte seen, in timestamp ticks.</summary>
    public long FloorTicks { get; private set; } = long.MaxValue;

    public long MedianTotalTicks => Volatile.Read(ref _medianTotal);

    public long MedianFirstByteTicks => Volatile.Read(ref _medianFirstByte);

    public TimeSpan? MedianFirstByte => Volatile.Read(ref _medianFirstByte) is var ticks and >= 0
        ? time.GetElapsedTime(0, ticks)
        : null;

    public void Record(long firstByteTicks, long totalTicks)
    {
        var slot = _count % Window;
        _firstByte[slot] = firstByteTicks;
        _total[slot] = totalTicks;
        _count = _count == int.MaxValue ? Window : _count + 1;
        FloorTicks = Math.Min(FloorTicks, firstByteTicks);
        Volatile.Write(ref _medianFirstByte, Median(_firstByte));
        Volatile.Write(ref _medianTotal, Median(_total));
    }

    private long Median(long[] samples)
    {
        var n = Math.Min(_count, Window);
        var scratch = _scratch.AsSpan(0, n);
        samples.AsSpan(0, n).CopyTo(scratch);
        scratch.Sort();
        return scratch[n / 2];
    }
}
