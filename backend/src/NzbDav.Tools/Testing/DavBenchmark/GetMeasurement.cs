namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>One timed GET: its status, the body bytes received, time to the first body byte and to the last.</summary>
public sealed record GetMeasurement(int Status, long Bytes, TimeSpan TimeToFirstByte, TimeSpan Elapsed)
{
    /// <summary>Body bytes per second over the whole request, in MB/s (10^6 bytes).</summary>
    public double MBps => Elapsed > TimeSpan.Zero ? Bytes / 1e6 / Elapsed.TotalSeconds : 0;
}
