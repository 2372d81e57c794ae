using System.Diagnostics.Metrics;
using NzbDav.Data.Entities;
using NzbDav.Server.Monitoring;
using NzbDav.Usenet.Health;

namespace NzbDav.Server.Health;

/// <summary>Health metrics: files per state, STATs by outcome, repairs by outcome, import checks.</summary>
public sealed class HealthMetrics
{
    private readonly long[] _stats = new long[3];
    private readonly Counter<long> _repairs;
    private readonly Counter<long> _imports;

    public HealthMetrics(IMeterFactory meterFactory, FileHealthCounts counts)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        ArgumentNullException.ThrowIfNull(counts);
        var meter = meterFactory.Create(IngestionMetrics.MeterName);
        meter.CreateObservableUpDownCounter("nzbdav.health.files", () => counts.Current.Select(static c => new Measurement<int>(c.Count, new KeyValuePair<string, object?>("state", StateName(c.State)))),
            "{file}", "Library files by health state");
        meter.CreateObservableCounter("nzbdav.health.stats", () => new[]
        {
            new Measurement<long>(Volatile.Read(ref _stats[0]), new KeyValuePair<string, object?>("outcome", "present")),
            new Measurement<long>(Volatile.Read(ref _stats[1]), new KeyValuePair<string, object?>("outcome", "missing")),
            new Measurement<long>(Volatile.Read(ref _stats[2]), new KeyValuePair<string, object?>("outcome", "unknown")),
        }, "{stat}", "STATs answered by health checks, by outcome (missing: every provider answered 430)");
        _repairs = meter.CreateCounter<long>("nzbdav.health.repairs", "{repair}", "Repairs through Sonarr/Radarr, by outcome");
        _imports = meter.CreateCounter<long>("nzbdav.health.import_checks", "{job}", "Import checks, by outcome");
    }

    /// <summary>STATs answered so far: present, missing, unknown.</summary>
    public (long Present, long Missing, long Unknown) StatTotals =>
        (Volatile.Read(ref _stats[0]), Volatile.Read(ref _stats[1]), Volatile.Read(ref _stats[2]));

    public static string StateName(FileHealthState state) => state.ToString().ToLowerInvariant();

    internal void Stats(StatSweepCounts counts)
    {
        Interlocked.Add(ref _stats[0], counts.Present);
        Interlocked.Add(ref _stats[1], counts.Missing);
        Interlocked.Add(ref _stats[2], counts.Unknown);
    }

    internal void Repair(string outcome) => _repairs.Add(1, new KeyValuePair<string, object?>("outcome", outcome));

    internal void ImportCheck(string outcome) => _imports.Add(1, new KeyValuePair<string, object?>("outcome", outcome));
}
