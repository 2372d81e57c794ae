using System.Diagnostics;

namespace NzbDav.Server.Queue;

/// <summary>
/// What one running ingestion has done: articles asked for and answered, and decoded bytes received.
/// Updated by the fetcher as answers arrive, read by the SABnzbd queue; lock-free counters.
/// </summary>
public sealed class JobProgress
{
    private readonly long _started = Stopwatch.GetTimestamp();
    private long _planned;
    private long _done;
    private long _bytes;
    private volatile string _step = "Starting";

    public Guid JobId { get; init; }

    public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_started);

    /// <summary>What the ingestion is doing now, in words for the UI's queue.</summary>
    public string Step => _step;

    /// <summary>Articles asked for so far (the count grows as headers reveal more to read).</summary>
    public long Planned => Interlocked.Read(ref _planned);

    public long Done => Interlocked.Read(ref _done);

    /// <summary>Decoded bytes the ingestion has received.</summary>
    public long Bytes => Interlocked.Read(ref _bytes);

    /// <summary>Share of the known work done, 0..1; never 1 while running (saving is left).</summary>
    public double Fraction
    {
        get
        {
            var planned = Planned;
            return planned == 0 ? 0 : Math.Min(0.99, (double)Done / planned);
        }
    }

    /// <summary>Received bytes per second since the start.</summary>
    public double BytesPerSecond
    {
        get
        {
            var seconds = Elapsed.TotalSeconds;
            return seconds <= 0 ? 0 : Bytes / seconds;
        }
    }

    /// <summary>Time left at the pace so far; null until the first answer gives a pace.</summary>
    public TimeSpan? Remaining
    {
        get
        {
            var done = Done;
            return done == 0 ? null : Elapsed * ((double)Math.Max(0, Planned - done) / done);
        }
    }

    internal void Enter(string step) => _step = step;

    internal void Planning() => Interlocked.Increment(ref _planned);

    internal void Answered(long bytes)
    {
        Interlocked.Increment(ref _done);
        Interlocked.Add(ref _bytes, bytes);
    }
}
