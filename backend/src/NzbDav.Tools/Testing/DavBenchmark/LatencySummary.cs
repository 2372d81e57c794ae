namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>Count, median, 99th percentile and maximum of a sample of durations, in milliseconds.</summary>
public sealed record LatencySummary(int Count, double P50Ms, double P99Ms, double MaxMs)
{
    public static LatencySummary Empty { get; } = new(0, 0, 0, 0);

    /// <summary>Summarizes <paramref name="durationsMs"/> (sorted in place).</summary>
    public static LatencySummary From(List<double> durationsMs)
    {
        ArgumentNullException.ThrowIfNull(durationsMs);
        if (durationsMs.Count == 0)
            return Empty;
        durationsMs.Sort();
        return new LatencySummary(durationsMs.Count, Percentile(durationsMs, 0.50), Percentile(durationsMs, 0.99), durationsMs[^1]);
    }

    // Nearest rank: the smallest sample with at least p of the samples at or below it.
    private static double Percentile(List<double> sorted, double p) =>
        sorted[Math.Clamp((int)Math.Ceiling(p * sorted.Count) - 1, 0, sorted.Count - 1)];
}
