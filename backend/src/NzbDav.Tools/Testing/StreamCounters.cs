using NzbDav.Streaming;

namespace NzbDav.Tools.Testing;

/// <summary><see cref="StreamStatistics"/> summed over the streams a run opened.</summary>
public sealed record StreamCounters(
    long BytesFetched,
    long BytesRead,
    long SegmentsFetched,
    long Retries,
    long StragglerRaces,
    long LeasesAcquired,
    TimeSpan LeaseAcquireTotal,
    TimeSpan LeaseAcquireMax,
    int PeakLeasesHeld)
{
    public static StreamCounters Zero { get; } = new(0, 0, 0, 0, 0, 0, TimeSpan.Zero, TimeSpan.Zero, 0);

    /// <summary>This plus one stream's statistics (read once the stream is done).</summary>
    public StreamCounters Add(StreamStatistics statistics)
    {
        ArgumentNullException.ThrowIfNull(statistics);
        return new StreamCounters(
            BytesFetched + statistics.BytesFetched,
            BytesRead + statistics.BytesRead,
            SegmentsFetched + statistics.SegmentsFetched,
            Retries + statistics.Retries,
            StragglerRaces + statistics.StragglerRaces,
            LeasesAcquired + statistics.LeasesAcquired,
            LeaseAcquireTotal + statistics.TotalLeaseAcquireTime,
            statistics.MaxLeaseAcquireTime > LeaseAcquireMax ? statistics.MaxLeaseAcquireTime : LeaseAcquireMax,
            Math.Max(PeakLeasesHeld, statistics.PeakLeasesHeld));
    }
}
