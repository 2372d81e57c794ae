namespace NzbDav.Tools.Testing;

/// <summary>Summary of per-read durations, in milliseconds.</summary>
public sealed record ReadTimeStatistics(int Count, double AverageMs, double MedianMs, double MinMs, double MaxMs, double P95Ms, double P99Ms = 0)
{
    /// <summary>An empty sample.</summary>
    public static ReadTimeStatistics Empty { get; } = new(0, 0, 0, 0, 0, 0);

    /// <summary>Summarizes <paramref name="durationsMs"/> (sorted in place).</summary>
    public static ReadTimeStatistics From(List<double> durationsMs)
    {
        ArgumentNullException.ThrowIfNull(durationsMs);
        if (durationsMs.Count == 0)
        {
            return Empty;
        }

        durationsMs.Sort();
        var count = durationsMs.Count;
        var median = count % 2 == 1
            ? durationsMs[count / 2]
            : (durationsMs[(count / 2) - 1] + durationsMs[count / 2]) / 2;
        return new ReadTimeStatistics(count, durationsMs.Average(), median, durationsMs[0], durationsMs[^1], Percentile(durationsMs, 0.95), Percentile(durationsMs, 0.99));
    }

    // Nearest-rank percentile: the smallest sample with at least p of the samples at or below it.
    private static double Percentile(List<double> sorted, double p)
    {
        var rank = (int)Math.Ceiling(p * sorted.Count);
        return sorted[Math.Clamp(rank - 1, 0, sorted.Count - 1)];
    }
}
