using NzbDav.Streaming;

namespace NzbDav.Tools.Testing;

/// <summary>What the sequential read measured.</summary>
internal sealed record SequentialPass(long Length, long Bytes, TimeSpan Elapsed, ReadTimeStatistics ReadTimes, StreamStatistics Statistics)
{
    /// <summary>From the open to the first read's return.</summary>
    public TimeSpan FirstByte { get; init; }
}
