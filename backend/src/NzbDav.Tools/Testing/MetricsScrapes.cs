using System.Diagnostics;

namespace NzbDav.Tools.Testing;

/// <summary>What <c>--scrape-metrics-ms</c> did during a run: how many scrapes, how long each took, how big the last was.</summary>
public sealed record MetricsScrapes(int IntervalMs, int Count, int Failures, double MedianMs, double MaxMs, long LastBytes)
{
    /// <summary>
    /// Calls <paramref name="scrapeOnce"/> (which returns the bytes scraped) every
    /// <paramref name="intervalMs"/> until <paramref name="stop"/> fires, then summarises. A failed
    /// scrape is counted, not thrown: the run's own figures are what it measures.
    /// </summary>
    public static async Task<MetricsScrapes> RunAsync(int intervalMs, Func<CancellationToken, Task<long>> scrapeOnce, CancellationToken stop)
    {
        ArgumentNullException.ThrowIfNull(scrapeOnce);
        var times = new List<double>();
        var failures = 0;
        long lastBytes = 0;
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(intervalMs));
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                var started = Stopwatch.GetTimestamp();
                try
                {
                    lastBytes = await scrapeOnce(stop);
                    times.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                }
                catch (Exception ex) when (ex is HttpRequestException or IOException or InvalidOperationException)
                {
                    failures++;
                }
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The run is over.
        }

        times.Sort();
        return new MetricsScrapes(intervalMs, times.Count, failures, times.Count == 0 ? 0 : times[times.Count / 2], times.Count == 0 ? 0 : times[^1], lastBytes);
    }
}
