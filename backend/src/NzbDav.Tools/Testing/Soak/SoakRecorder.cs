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
    /// <summary>Waits at least this long are kept with who waited, where, and what the server logged meanwhile.</summary>
    private static readonly TimeSpan SlowWait = TimeSpan.FromSeconds(1);

    /// <summary>In the server's warnings that a read waited long: on one article (FetchLog.SlowRead, SlowReadEnded) or in all (StreamLog.SlowRead).</summary>
    private const string SlowReadMarker = "kept a reader waiting";

    private const int MaxServerLines = 2000;

    private readonly Lock _gate = new();
    private readonly List<SoakSlowWait> _slow = [];
    private readonly List<(long At, string Line)> _serverLines = [];
    private readonly List<(long Start, long End)> _waits = [];
    private readonly List<(long Start, long End)> _propfinds = [];
    private readonly List<SoakFailure> _failures = [];
    private long _outageStart = long.MaxValue;
    private long _outageEnd = long.MaxValue;
    private long _reads;
    private long _runStart;

    public void RunStarted() => Volatile.Write(ref _runStart, Stopwatch.GetTimestamp());

    public void Wait(string client, string path, long offset, long start, TimeSpan wait)
    {
        var end = start + (long)(wait.TotalSeconds * Stopwatch.Frequency);
        lock (_gate)
        {
            _waits.Add((start, end));
            if (wait >= SlowWait)
                _slow.Add(new SoakSlowWait(client, path, offset, start, end, []));
        }
    }

    /// <summary>A line of the server's log: its slow-read warnings are kept, stamped with when they arrived.</summary>
    public void ServerLine(string line)
    {
        if (!line.Contains(SlowReadMarker, StringComparison.Ordinal))
            return;
        var at = Stopwatch.GetTimestamp();
        lock (_gate)
        {
            if (_serverLines.Count < MaxServerLines)
                _serverLines.Add((at, line.Trim()));
        }
    }

    /// <summary>
    /// The longest waits that did not overlap the outage, worst first, each with the server's
    /// slow-read warnings logged while it waited (up to a second after).
    /// </summary>
    public IReadOnlyList<SoakSlowWait> WorstOutside(int count)
    {
        var margin = Stopwatch.Frequency;
        lock (_gate)
        {
            return [.. _slow
                .Where(w => !DuringOutage(w.Start, w.End))
                .OrderByDescending(w => w.End - w.Start)
                .Take(count)
                .Select(w => w with
                {
                    Server = [.. _serverLines.Where(l => l.At >= w.Start && l.At <= w.End + margin).Select(l => l.Line).Take(6)],
                })];
        }
    }

    /// <summary>Seconds from the start of the load to <paramref name="timestamp"/>.</summary>
    public double SecondsIntoRun(long timestamp) => Stopwatch.GetElapsedTime(Volatile.Read(ref _runStart), timestamp).TotalSeconds;

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

/// <summary>One long block wait: who waited, for which bytes, when (Stopwatch timestamps), and what the server logged meanwhile.</summary>
public sealed record SoakSlowWait(string Client, string Path, long Offset, long Start, long End, IReadOnlyList<string> Server)
{
    public double WaitMs => Stopwatch.GetElapsedTime(Start, End).TotalMilliseconds;
}

/// <summary>A request that failed: who sent it, what it was, why, and when (Stopwatch timestamps).</summary>
public sealed record SoakFailure(string Client, string Request, string Error, long Start, long End);
