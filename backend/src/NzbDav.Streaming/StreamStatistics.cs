using NzbDav.Usenet.Fetching;

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
    private long _bytesShared;
    private long _bytesFromDisk;

    /// <summary>Decoded bytes received from providers (every attempt, including discarded ones).</summary>
    public long BytesFetched => Interlocked.Read(ref _bytesFetched);

    /// <summary>Decoded bytes of segments taken from the cache or from another stream's fetch instead of fetched.</summary>
    public long BytesShared => Interlocked.Read(ref _bytesShared);

    /// <summary>Decoded bytes of segments read from the disk cache instead of fetched.</summary>
    public long BytesFromDisk => Interlocked.Read(ref _bytesFromDisk);

    /// <summary>Bytes returned to the reader.</summary>
    public long BytesRead => Interlocked.Read(ref _bytesRead);

    /// <summary>Segments received completely with a verified CRC.</summary>
    public long SegmentsFetched => Interlocked.Read(ref _segmentsFetched);

    /// <summary>The stream's fetch group: retries, straggler races and leases.</summary>
    public FetchStatistics Fetching { get; } = new();

    /// <summary>Fetches repeated after a failure (broken connection, 430, bad CRC).</summary>
    public long Retries => Fetching.Retries;

    /// <summary>Late head-of-line segments fetched a second time on another connection.</summary>
    public long StragglerRaces => Fetching.StragglerRaces;

    /// <summary>Connection leases taken from the streaming pool.</summary>
    public long LeasesAcquired => Fetching.LeasesAcquired;

    /// <summary>Time spent waiting for leases, summed.</summary>
    public TimeSpan TotalLeaseAcquireTime => Fetching.TotalLeaseAcquireTime;

    /// <summary>The longest single wait for a lease.</summary>
    public TimeSpan MaxLeaseAcquireTime => Fetching.MaxLeaseAcquireTime;

    /// <summary>Leases held now.</summary>
    public int LeasesHeld => Fetching.LeasesHeld;

    /// <summary>The most leases held at once.</summary>
    public int PeakLeasesHeld => Fetching.PeakLeasesHeld;

    internal void AddFetched(int count) => Interlocked.Add(ref _bytesFetched, count);

    internal void AddShared(long count) => Interlocked.Add(ref _bytesShared, count);

    internal void AddFromDisk(long count) => Interlocked.Add(ref _bytesFromDisk, count);

    internal void AddRead(int count) => Interlocked.Add(ref _bytesRead, count);

    /// <summary>A part arrived whole and verified.</summary>
    internal void CompletedFetch(int bytes)
    {
        Interlocked.Add(ref _bytesFetched, bytes);
        Interlocked.Increment(ref _segmentsFetched);
    }
}
