namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// How a playing stream reads: at <see cref="BytesPerSecond"/> (0 = as fast as the server sends),
/// timing every 256 KiB block into <see cref="BlockTimes"/>, until <see cref="Stop"/> (a player
/// closing the file: the request is dropped mid-body). <see cref="OnBlock"/>, when set, is told each
/// block's wait with the timestamp it began at and its offset in the file (the soak sorts waits into
/// inside and outside an outage, and names the worst).
/// </summary>
internal sealed record Playback(long BytesPerSecond, List<double> BlockTimes, Action OnFirstBlock, CancellationToken Stop)
{
    /// <summary>Called with each block's start (<see cref="System.Diagnostics.Stopwatch"/> timestamp), its wait and its offset in the file.</summary>
    public Action<long, TimeSpan, long>? OnBlock { get; init; }
}
