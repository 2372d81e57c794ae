using NzbDav.Data.Entities;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Api;

/// <summary>
/// The queue's sizes, speed and times left, from what ingestion really does: a running job is as far
/// as its answered article requests (it reads headers, never the payload), at the byte rate it
/// receives them; a waiting job is expected to take as long as recent jobs did.
/// </summary>
internal sealed class SabQueueEstimate
{
    private readonly Dictionary<Guid, SlotFigures> _slots = [];

    private SabQueueEstimate()
    {
    }

    public long Bytes { get; private set; }

    public long BytesLeft { get; private set; }

    public double BytesPerSecond { get; private set; }

    /// <summary>Until the last job that will run is done.</summary>
    public TimeSpan TimeLeft { get; private set; }

    public SlotFigures For(Job job) => _slots[job.Id];

    /// <param name="ordered">Every queue job in queue order.</param>
    /// <param name="paused">The global pause: waiting jobs then get no time left, like SABnzbd at speed 0.</param>
    public static SabQueueEstimate Compute(IReadOnlyList<Job> ordered, IngestionProgress progress, bool paused, int concurrentJobs)
    {
        var estimate = new SabQueueEstimate();
        var typical = progress.TypicalDuration ?? TimeSpan.Zero;
        var ahead = TimeSpan.Zero;
        foreach (var job in ordered)
        {
            if (job.Status != JobStatus.Processing || progress.Find(job.Id) is not { } running)
                continue;
            var fraction = running.Fraction;
            var left = running.Remaining ?? typical * (1 - fraction);
            estimate.Add(job, new SlotFigures((long)(job.TotalBytes * (1 - fraction)), (int)(fraction * 100), left));
            estimate.BytesPerSecond += running.BytesPerSecond;
            ahead = left > ahead ? left : ahead;
        }

        var waiting = 0;
        foreach (var job in ordered)
        {
            if (estimate._slots.ContainsKey(job.Id))
                continue;
            var left = TimeSpan.Zero;
            if (job.Status != JobStatus.Paused && !paused)
                left = ahead + (typical * ((waiting++ / Math.Max(1, concurrentJobs)) + 1));
            estimate.Add(job, new SlotFigures(job.TotalBytes, 0, left));
        }

        return estimate;
    }

    private void Add(Job job, SlotFigures figures)
    {
        _slots[job.Id] = figures;
        Bytes += job.TotalBytes;
        BytesLeft += figures.BytesLeft;
        TimeLeft = figures.TimeLeft > TimeLeft ? figures.TimeLeft : TimeLeft;
    }
}

/// <summary>One queue slot's figures.</summary>
internal readonly record struct SlotFigures(long BytesLeft, int Percentage, TimeSpan TimeLeft);
