using System.Diagnostics.Metrics;
using NzbDav.Data.Entities;
using NzbDav.Usenet.Metrics;

namespace NzbDav.Server.Monitoring;

/// <summary>The <c>NzbDav.Server</c> meter: NZBs added, jobs by state, and how long ingestion took.</summary>
public sealed class IngestionMetrics
{
    /// <summary>The meter's name.</summary>
    public const string MeterName = "NzbDav.Server";

    private readonly KeyValuePair<string, object?>[] _completedTag = [new("outcome", "completed")];
    private readonly KeyValuePair<string, object?>[] _failedTag = [new("outcome", "failed")];

    private readonly Histogram<double> _duration;
    private long _added;

    public IngestionMetrics(IMeterFactory meterFactory, JobStateCounts jobs)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        ArgumentNullException.ThrowIfNull(jobs);
        var meter = meterFactory.Create(MeterName);
        meter.CreateObservableCounter("nzbdav.nzbs.added", () => Volatile.Read(ref _added), "{nzb}",
            "NZBs submitted through addfile or addurl (each became a job; an NZB that does not parse becomes a failed one)");
        meter.CreateObservableUpDownCounter("nzbdav.jobs", () => jobs.Current.Select(static c => new Measurement<int>(c.Count, new KeyValuePair<string, object?>("state", StateName(c.Status)))),
            "{job}", "Jobs in the queue and history, by state");
        _duration = meter.CreateHistogram("nzbdav.ingestion.duration", "s", "Time from a job leaving the queue to its result being saved",
            null, new InstrumentAdvice<double> { HistogramBucketBoundaries = MetricBuckets.Job });
    }

    internal static string StateName(JobStatus status) => status switch
    {
        JobStatus.Queued => "queued",
        JobStatus.Paused => "paused",
        JobStatus.Processing => "processing",
        JobStatus.Completed => "completed",
        JobStatus.Failed => "failed",
        _ => status.ToString().ToLowerInvariant(),
    };

    internal void NzbAdded() => Interlocked.Increment(ref _added);

    internal void JobEnded(bool completed, TimeSpan elapsed) =>
        _duration.Record(elapsed.TotalSeconds, completed ? _completedTag : _failedTag);
}
