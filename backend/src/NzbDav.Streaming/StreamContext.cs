using System.Buffers;
using NzbDav.Streaming.Disk;

namespace NzbDav.Streaming;

/// <summary>What every ticket of one stream shares: the layout it checks headers against, the reader's wake-up, where buffers come from and what they count.</summary>
internal sealed class StreamContext(SegmentIndex index, ReaderWakeup wakeup, ArrayPool<byte> pool, StreamStatistics statistics)
{
    private int _filled;
    private int _orphans;

    /// <summary>Per segment: a confirmed hole served as zeros (null: none).</summary>
    public bool[]? Holes { get; init; }

    /// <summary>Told the first time a hole is served (once per stream).</summary>
    public Action<string>? OnFirstFill { get; init; }

    /// <summary>Where a rebuilt hole's bytes are read from (null: every hole is zeros).</summary>
    public ISegmentPatches? Patches { get; init; }

    /// <summary>Metrics to count zero-filled bytes in.</summary>
    public StreamingMetrics? Metrics { get; init; }

    /// <summary>Segments on disk, asked before a provider and given every provider's answer (null: no disk cache).</summary>
    public DiskSegmentStore? Disk { get; init; }

    /// <summary>Where segments are shared with other streams.</summary>
    public required SegmentCache Cache { get; init; }

    /// <summary>Identifies the file among open streams (its first message-id): a file two streams read is worth caching.</summary>
    public string FileKey { get; } = index.MessageIdAt(0);

    /// <summary>Changes whenever a ticket of this stream lost its fetch (the reader then fetches again).</summary>
    public int Orphans => Volatile.Read(ref _orphans);

    public void Orphaned() => Interlocked.Increment(ref _orphans);

    public bool IsHole(int segment) => Holes is { } holes && holes[segment];

    public void Filled(string messageId, long bytes)
    {
        Metrics?.HoleFilled(bytes);
        if (Interlocked.Exchange(ref _filled, 1) == 0)
            OnFirstFill?.Invoke(messageId);
    }

    public SegmentIndex Index { get; } = index;

    public ReaderWakeup Wakeup { get; } = wakeup;

    public ArrayPool<byte> Pool { get; } = pool;

    public StreamStatistics Statistics { get; } = statistics;
}
