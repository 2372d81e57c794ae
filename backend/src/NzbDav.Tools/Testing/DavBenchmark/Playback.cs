namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>
/// How a playing stream reads: at <see cref="BytesPerSecond"/> (0 = as fast as the server sends),
/// timing every 256 KiB block into <see cref="BlockTimes"/>, until <see cref="Stop"/> (a player
/// closing the file: the request is dropped mid-body).
/// </summary>
internal sealed record Playback(long BytesPerSecond, List<double> BlockTimes, Action OnFirstBlock, CancellationToken Stop);
