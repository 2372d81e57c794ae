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
        _seekFirstByte = meter.CreateHistogram("nzbdav.stream.seek.first_byte", "s", "Time from a seek to the first byte returned after it", null, latency);
        _readWait = meter.CreateHistogram("nzbdav.stream.read.wait", "s", "Time a read that waited spent waiting for segments", null, latency);
    }

    /// <summary>Streams open now.</summary>
    public long OpenStreams => Volatile.Read(ref _open);

    /// <summary>Bytes served to readers so far.</summary>
    public long ServedBytes => Volatile.Read(ref _served);

    /// <summary>Segments served as zeros so far.</summary>
    public long HoleSegments => Volatile.Read(ref _holes);

    internal void HoleFilled(long bytes)
    {
        Interlocked.Increment(ref _holes);
        Interlocked.Add(ref _holeBytes, bytes);
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
