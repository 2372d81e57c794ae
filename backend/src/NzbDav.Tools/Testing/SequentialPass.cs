using NzbDav.Streaming;

namespace NzbDav.Tools.Testing;

/// <summary>What the sequential read measured.</summary>
internal sealed record SequentialPass(long Length, long Bytes, TimeSpan Elapsed, ReadTimeStatistics ReadTimes, StreamStatistics Statistics);
