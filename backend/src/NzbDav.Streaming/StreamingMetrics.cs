using System.Diagnostics;
using System.Diagnostics.Metrics;
using NzbDav.Usenet.Metrics;

namespace NzbDav.Streaming;

/// <summary>
/// The <c>NzbDav.Streaming</c> meter, shared by every <see cref="BufferedSegmentStream"/> a factory
/// opens: open streams, bytes served and reads (once per read), seeks, seek-to-first-byte time, and
/// reads that had to wait for a segment. Totals are plain counters published through observable
/// instruments (every series exists from the start); times are histograms. Register it as a
/// singleton and hand it to <see cref="NzbFileStreamFactory"/>.
/// </summary>
public sealed class StreamingMetrics
{
    /// <summary>The meter's name.</summary>
    public const string MeterName = "NzbDav.Streaming";

    private readonly Histogram<double> _seekFirstByte;
    private readonly Histogram<double> _readWait;
    private long _open;
    private long _served;
    private long _reads;
    private long _seeks;
    private long _waitedReads;
    private long _holeBytes;
    private long _holes;
    private long _patched;
    private long _patchedBytes;
    private long _fetched;
    private SegmentCache? _cache;
    private ReadAheadBudget? _budget;
    private ChunkPool? _chunks;
    private Disk.DiskSegmentCache? _disk;
    private long _fromDisk;

    public StreamingMetrics(IMeterFactory meterFactory)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        var meter = meterFactory.Create(MeterName);
        var latency = new InstrumentAdvice<double> { HistogramBucketBoundaries = MetricBuckets.Latency };
        meter.CreateObservableUpDownCounter("nzbdav.streams.open", () => Volatile.Read(ref _open), "{stream}", "Streams open now (one per WebDAV GET of a file or archive part)");
        meter.CreateObservableCounter("nzbdav.stream.served", () => Volatile.Read(ref _served), "By", "Bytes returned by stream reads to their reader");
        meter.CreateObservableCounter("nzbdav.stream.reads", () => Volatile.Read(ref _reads), "{read}", "Stream reads served (calls that asked for bytes before the end of the file)");
        meter.CreateObservableCounter("nzbdav.stream.seeks", () => Volatile.Read(ref _seeks), "{seek}", "Seeks that moved a stream's position");
        meter.CreateObservableCounter("nzbdav.stream.read.waits", () => Volatile.Read(ref _waitedReads), "{read}", "Reads that waited for a segment to arrive");
        meter.CreateObservableCounter("nzbdav.stream.hole.segments", () => Volatile.Read(ref _holes), "{segment}", "Confirmed-missing segments of Degraded files served as zeros");
        meter.CreateObservableCounter("nzbdav.stream.hole.bytes", () => Volatile.Read(ref _holeBytes), "By", "Zero bytes served in place of confirmed-missing segments");
        meter.CreateObservableCounter("nzbdav.stream.patch.segments", () => Volatile.Read(ref _patched), "{segment}", "Confirmed-missing segments served from their PAR2 repair's patch");
        meter.CreateObservableCounter("nzbdav.stream.patch.bytes", () => Volatile.Read(ref _patchedBytes), "By", "Bytes served from PAR2 repair patches");
        meter.CreateObservableCounter("nzbdav.stream.fetched", () => Volatile.Read(ref _fetched), "By", "Decoded bytes received from providers for streams (every attempt, read or not)");
        meter.CreateObservableCounter("nzbdav.stream.cache.hits", () => _cache?.Hits ?? 0, "{segment}", "Segments a stream took from the segment cache instead of fetching");
        meter.CreateObservableCounter("nzbdav.stream.cache.hit_bytes", () => _cache?.HitBytes ?? 0, "By", "Decoded bytes of segments taken from the segment cache");
        meter.CreateObservableCounter("nzbdav.stream.cache.misses", () => _cache?.Misses ?? 0, "{segment}", "Segments a stream had to fetch (nobody held or was fetching them)");
        meter.CreateObservableCounter("nzbdav.stream.shared_fetches", () => _cache?.SharedFetches ?? 0, "{segment}", "Segments a stream took from another stream's fetch in flight");
        meter.CreateObservableCounter("nzbdav.stream.shared_fetch_bytes", () => _cache?.SharedFetchBytes ?? 0, "By", "Decoded bytes of segments taken from another stream's fetch in flight");
        meter.CreateObservableCounter("nzbdav.stream.cache.evictions", () => _cache?.Evictions ?? 0, "{segment}", "Segments the segment cache dropped to stay within its size");
        meter.CreateObservableGauge("nzbdav.stream.cache.size", () => _cache?.Bytes ?? 0, "By", "Decoded bytes the segment cache holds now");
        meter.CreateObservableGauge("nzbdav.stream.readahead", () => _budget?.Claimed ?? 0, "By", "Decoded bytes every stream's read-ahead spans now (claimed against the memory budget)");
        meter.CreateObservableGauge("nzbdav.stream.readahead.limit", () => _budget?.Limit ?? 0, "By", "The ceiling on all streams' read-ahead: the memory budget less the segment cache");
        meter.CreateObservableGauge("nzbdav.stream.buffers", () => _chunks?.RentedBytes ?? 0, "By", "Bytes of 64 KiB buffer chunks segments hold now (read-ahead, the cache, fetches in flight)");
        meter.CreateObservableCounter("nzbdav.stream.buffers.allocated", () => (_chunks?.Allocated ?? 0) * ChunkPool.ChunkSize, "By", "Bytes of buffer chunks allocated because none was free (steady streaming reuses them: a rising rate means the budget is too tight)");
        meter.CreateObservableGauge("nzbdav.stream.buffers.free", () => _chunks?.FreeBytes ?? 0, "By", "Bytes of free buffer chunks kept for reuse (never more than the memory budget leaves)");
        meter.CreateObservableCounter("nzbdav.disk_cache.hits", () => DiskStore?.Hits ?? 0, "{segment}", "Segments read from the disk cache instead of fetched from a provider");
        meter.CreateObservableCounter("nzbdav.disk_cache.hit_bytes", () => DiskStore?.HitBytes ?? 0, "By", "Decoded bytes read from the disk cache: provider bytes saved");
        meter.CreateObservableCounter("nzbdav.disk_cache.misses", () => DiskStore?.Misses ?? 0, "{segment}", "Disk cache lookups that found nothing usable");
        meter.CreateObservableCounter("nzbdav.disk_cache.written_bytes", () => DiskStore?.WrittenBytes ?? 0, "By", "Decoded bytes written to the disk cache");
        meter.CreateObservableCounter("nzbdav.disk_cache.dropped_writes", () => DiskStore?.DroppedWrites ?? 0, "{segment}", "Writes the disk cache dropped (queue full, disk failing)");
        meter.CreateObservableCounter("nzbdav.disk_cache.skipped_playback", () => DiskStore?.SkippedPlayback ?? 0, "{segment}", "Played segments not written because they came faster than Cache:PlaybackWriteBytesPerSecond");
        meter.CreateObservableCounter("nzbdav.disk_cache.corrupt", () => DiskStore?.CorruptReads ?? 0, "{segment}", "Disk cache segments whose bytes failed their CRC (deleted and fetched again)");
        meter.CreateObservableCounter("nzbdav.disk_cache.evictions", () => new[]
        {
            new Measurement<long>(DiskStore?.EvictedPlayback ?? 0, new KeyValuePair<string, object?>("reason", "playback")),
            new Measurement<long>(DiskStore?.EvictedProbes ?? 0, new KeyValuePair<string, object?>("reason", "probe")),
        }, "{segment}", "Segments the disk cache evicted to stay within its size: playback first, probes beyond their share");
        meter.CreateObservableGauge("nzbdav.disk_cache.size", () => DiskStore?.Bytes ?? 0, "By", "Decoded bytes the disk cache holds now");
        meter.CreateObservableGauge("nzbdav.disk_cache.limit", () => DiskStore?.MaxBytes ?? 0, "By", "The most decoded bytes the disk cache keeps (0: off)");
        meter.CreateObservableGauge("nzbdav.disk_cache.degraded", () => DiskStore?.Degraded is null ? 0 : 1, "{state}", "1 while the disk cache cannot write (the reason is on /health and the dashboard)");
        _seekFirstByte = meter.CreateHistogram("nzbdav.stream.seek.first_byte", "s", "Time from a seek to the first byte returned after it", null, latency);
        _readWait = meter.CreateHistogram("nzbdav.stream.read.wait", "s", "Time a read that waited spent waiting for segments", null, latency);
    }

    /// <summary>Streams open now.</summary>
    public long OpenStreams => Volatile.Read(ref _open);

    /// <summary>Bytes served to readers so far.</summary>
    public long ServedBytes => Volatile.Read(ref _served);

    /// <summary>Segments served as zeros so far.</summary>
    public long HoleSegments => Volatile.Read(ref _holes);

    /// <summary>Holes served from a repair's patch instead of zeros.</summary>
    public long PatchedSegments => Volatile.Read(ref _patched);

    /// <summary>Decoded bytes received for streams so far.</summary>
    public long FetchedBytes => Volatile.Read(ref _fetched);

    /// <summary>The cache whose counters the meter publishes (the factory's).</summary>
    public SegmentCache? Cache => Volatile.Read(ref _cache);

    /// <summary>The host-wide read-ahead budget whose use the meter publishes (the factory's).</summary>
    public ReadAheadBudget? Budget => Volatile.Read(ref _budget);

    /// <summary>The disk cache's store in force (null while it is off).</summary>
    public Disk.DiskSegmentStore? DiskStore => Volatile.Read(ref _disk)?.Store;

    /// <summary>Decoded bytes streams took from the disk cache so far.</summary>
    public long FromDiskBytes => Volatile.Read(ref _fromDisk);

    internal void FromDisk(long bytes) => Interlocked.Add(ref _fromDisk, bytes);

    internal void Observe(SegmentCache cache, ReadAheadBudget budget, ChunkPool? chunks, Disk.DiskSegmentCache? disk = null)
    {
        Volatile.Write(ref _cache, cache);
        Volatile.Write(ref _budget, budget);
        Volatile.Write(ref _chunks, chunks);
        Volatile.Write(ref _disk, disk);
    }

    internal void Fetched(long bytes) => Interlocked.Add(ref _fetched, bytes);

    internal void HoleFilled(long bytes)
    {
        Interlocked.Increment(ref _holes);
        Interlocked.Add(ref _holeBytes, bytes);
    }

    internal void PatchServed(long bytes)
    {
        Interlocked.Increment(ref _patched);
        Interlocked.Add(ref _patchedBytes, bytes);
    }

    internal void Opened() => Interlocked.Increment(ref _open);

    internal void Closed() => Interlocked.Decrement(ref _open);

    internal void Read(int bytes)
    {
        Interlocked.Increment(ref _reads);
        Interlocked.Add(ref _served, bytes);
    }

    internal void Seeked() => Interlocked.Increment(ref _seeks);

    internal void FirstByteAfterSeek(long seekedAt) =>
        _seekFirstByte.Record(Stopwatch.GetElapsedTime(seekedAt).TotalSeconds);

    internal void ReadWaited(long waitedTicks)
    {
        Interlocked.Increment(ref _waitedReads);
        _readWait.Record(Stopwatch.GetElapsedTime(0, waitedTicks).TotalSeconds);
    }
}
