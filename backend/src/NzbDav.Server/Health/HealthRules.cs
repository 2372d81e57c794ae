using NzbDav.Data.Entities;

namespace NzbDav.Server.Health;

/// <summary>The decisions of a health check that need no I/O: what to ask about, what the answers mean, when to look again.</summary>
public static class HealthRules
{
    /// <summary>
    /// Segment indexes to STAT: every one for a small file, a full check or "check everything"; else
    /// the first two and last two (container headers and indexes live there), an even random sample
    /// of <paramref name="fraction"/> (at least 8), and every index in <paramref name="mustInclude"/>.
    /// Sorted, no duplicates.
    /// </summary>
    public static int[] Sample(int count, bool full, int fullCheckSegments, double fraction, IEnumerable<int> mustInclude, Random random)
    {
        ArgumentNullException.ThrowIfNull(mustInclude);
        ArgumentNullException.ThrowIfNull(random);
        if (full || count <= Math.Max(fullCheckSegments, 4))
            return Enumerable.Range(0, count).ToArray();
        var chosen = new HashSet<int> { 0, 1, count - 2, count - 1 };
        foreach (var index in mustInclude)
        {
            if (index >= 0 && index < count)
                chosen.Add(index);
        }
        var wanted = Math.Max(8, (int)Math.Ceiling(count * fraction));
        // One draw per stretch of the file, so no long stretch goes unsampled by chance.
        var stride = (double)count / wanted;
        for (var k = 0; k < wanted; k++)
        {
            var from = (int)(k * stride);
            var to = Math.Max(from + 1, (int)((k + 1) * stride));
            chosen.Add(Math.Min(count - 1, random.Next(from, to)));
        }
        var result = chosen.ToArray();
        Array.Sort(result);
        return result;
    }

    /// <summary>
    /// Healthy when there is no confirmed hole; Degraded while the holes stay within the tolerance
    /// (no run longer than <paramref name="maxConsecutive"/>, at most <paramref name="maxPercent"/> %
    /// of the bytes, none in the first or last segment); Broken beyond it.
    /// </summary>
    public static (FileHealthState State, string? Why) Judge(FileSegments segments, IReadOnlyCollection<int> holes, int maxConsecutive, double maxPercent)
    {
        ArgumentNullException.ThrowIfNull(segments);
        ArgumentNullException.ThrowIfNull(holes);
        if (holes.Count == 0)
            return (FileHealthState.Healthy, null);
        var sorted = holes.Order().ToArray();
        long bytes = 0;
        int longest = 0, run = 0, previous = -2;
        foreach (var index in sorted)
        {
            bytes += segments.BytesAt(index);
            run = index == previous + 1 ? run + 1 : 1;
            longest = Math.Max(longest, run);
            previous = index;
        }
        var percent = segments.Length == 0 ? 100 : bytes * 100.0 / segments.Length;
        var where = Describe(sorted, segments.Count);
        var summary = $"{sorted.Length} of {segments.Count} segments missing on every provider ({where}; {bytes:N0} bytes, {percent:0.###} %)";
        if (sorted[0] == 0 || sorted[^1] == segments.Count - 1)
            return (FileHealthState.Broken, summary + ": the first or last segment is gone");
        if (longest > maxConsecutive)
            return (FileHealthState.Broken, summary + $": {longest} in a row, more than the {maxConsecutive} tolerated");
        if (percent > maxPercent)
            return (FileHealthState.Broken, summary + $": more than the {maxPercent} % tolerated");
        return (FileHealthState.Degraded, summary + ": within the tolerance, the holes read as zeros");
    }

    /// <summary>
    /// The next scheduled check: release date + 2 × age, i.e. one age from now, clamped to
    /// [<paramref name="min"/>, <paramref name="max"/>] and jittered. Takedowns and expiry come in
    /// bursts soon after posting; a release that stayed whole for a month is likely to stay whole
    /// for another, so the interval grows with the age and the whole library costs about log(age)
    /// checks per file instead of one per day.
    /// </summary>
    public static DateTime NextCheck(DateTime now, DateTime releasedAt, TimeSpan min, TimeSpan max, double jitter, Random random)
    {
        ArgumentNullException.ThrowIfNull(random);
        var age = now - releasedAt;
        var interval = age < min ? min : age > max ? max : age;
        var factor = 1 + ((random.NextDouble() * 2) - 1) * jitter;
        return now + TimeSpan.FromTicks((long)(interval.Ticks * factor));
    }

    /// <summary>"segments 12, 40–42" (1-based), at most a few runs named.</summary>
    private static string Describe(int[] sorted, int count)
    {
        var runs = new List<string>();
        var i = 0;
        while (i < sorted.Length && runs.Count < 6)
        {
            var j = i;
            while (j + 1 < sorted.Length && sorted[j + 1] == sorted[j] + 1)
                j++;
            runs.Add(i == j ? $"{sorted[i] + 1}" : $"{sorted[i] + 1}–{sorted[j] + 1}");
            i = j + 1;
        }
        var more = i < sorted.Length ? ", …" : "";
        return $"segment{(sorted.Length == 1 ? "" : "s")} {string.Join(", ", runs)}{more} of {count}";
    }
}
