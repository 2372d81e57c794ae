namespace NzbDav.Usenet.Metrics;

/// <summary>Histogram bucket boundaries shared by the NzbDav meters, in seconds (Prometheus base unit).</summary>
public static class MetricBuckets
{
    /// <summary>
    /// 1 ms to 10 s in 1-2.5-5 steps: a loopback provider answers in about a millisecond, a distant
    /// one in tens to hundreds, and anything past 10 s is a stall whatever its exact length.
    /// </summary>
    public static IReadOnlyList<double> Latency { get; } =
        Array.AsReadOnly([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

    /// <summary>100 ms to 10 min: a job takes a few round trips when all goes well, minutes for huge or slow releases.</summary>
    public static IReadOnlyList<double> Job { get; } =
        Array.AsReadOnly([0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]);
}
