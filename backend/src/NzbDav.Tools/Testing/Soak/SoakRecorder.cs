using System.Diagnostics;
using NzbDav.Tools.Testing.DavBenchmark;

namespace NzbDav.Tools.Testing.Soak;

/// <summary>
/// Every read wait (a block's time from its request or the previous block to its last byte), every
/// failed request and every PROPFIND of the run, each with when it happened, so waits can be split
/// into those that overlapped the outage and those that did not. Thread-safe.
/// </summary>
internal sealed class SoakRecorder
{
    private readonly Lock _gate = new();
    private readonly List<(long Start, long End)> _waits = [];
    private readonly List<(long Start, long End)> _propfinds = [];
    private readonly List<SoakFailure> _failures = [];
    private long _outageStart = long.MaxValue;
    private long _outageEnd = long.MaxValue;
    private long _reads;

    public void Wait(long start, TimeSpan wait)
    {
        var end = start + (long)(wait.TotalSeconds * Stopwatch.Frequency);
        lock (_gate)
            _waits.Add((start, end));
    }

    public void Propfind(long start)
    {
        var end = Stopwatch.GetTimestamp();
        lock (_gate)
            _propfinds.Add((start, end));
    }

    public void Read() => Interlocked.Increment(ref _reads);

    public void Failed(string client, string request, Exception error, long start)
    {
        var failure = new SoakFailure(client, request, error.GetType().Name + ": " + error.Message, start, Stopwatch.GetTimestamp());
        lock (_gate)
            _failures.Add(failure);
    }

    public void OutageStarted() => Volatile.Write(ref _outageStart, Stopwatch.GetTimestamp());

    public void OutageEnded() => Volatile.Write(ref _outageEnd, Stopwatch.GetTimestamp());

    public long Reads => Interlocked.Read(ref _reads);

    /// <summary>The outage as (start, end) timestamps; end is when the primary was back up.</summary>
    public (long Start, long End) Outage => (Volatile.Read(ref _outageStart), Volatile.Read(ref _outageEnd));

    public (LatencySummary Outside, LatencySummary Inside) Waits() => Split(_waits);

    public (LatencySummary Outside, LatencySummary Inside) Propfinds() => Split(_propfinds);

    public IReadOnlyList<SoakFailure> Failures()
    {
        lock (_gate)
            return [.. _failures];
    }

    public bool DuringOutage(long start, long end)
    {
        var (down, up) = Outage;
        return start <= up && end >= down;
    }

    private (LatencySummary Outside, LatencySummary Inside) Split(List<(long Start, long End)> samples)
    {
        List<double> outside = [];
        List<double> inside = [];
        lock (_gate)
        {
            foreach (var (start, end) in samples)
                (DuringOutage(start, end) ? inside : outside).Add(Stopwatch.GetElapsedTime(start, end).TotalMilliseconds);
        }

        return (LatencySummary.From(outside), LatencySummary.From(inside));
    }
}

/// <summary>A request that failed: who sent it, what it was, why, and when (Stopwatch timestamps).</summary>
public sealed record SoakFailure(string Client, string Request, string Error, long Start, long End);
