using System.Buffers;

namespace NzbDav.Streaming;

/// <summary>What every ticket of one stream shares: the layout it checks headers against, the reader's wake-up, where buffers come from and what they count.</summary>
internal sealed class StreamContext(SegmentIndex index, ReaderWakeup wakeup, ArrayPool<byte> pool, StreamStatistics statistics)
{
    public SegmentIndex Index { get; } = index;

    public ReaderWakeup Wakeup { get; } = wakeup;

    public ArrayPool<byte> Pool { get; } = pool;

    public StreamStatistics Statistics { get; } = statistics;
}
