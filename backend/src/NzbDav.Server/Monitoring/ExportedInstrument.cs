using System.Diagnostics.Metrics;
using NzbDav.Usenet.Metrics;
using Prometheus;

namespace NzbDav.Server.Monitoring;

/// <summary>
/// One instrument's prometheus-net collector and its series. The collector is created at the first
/// measurement (its label names are that measurement's tag keys); each tag combination is looked up
/// in a small copy-on-write array, so recording a known series takes no lock and allocates nothing.
/// </summary>
internal sealed class ExportedInstrument
{
    private readonly Lock _gate = new();
    private readonly IMetricFactory _collectors;
    private readonly Kind _kind;
    private readonly string _name;
    private readonly string _help;
    private readonly double[] _buckets;
    private Series[] _series = [];
    private string[]? _labelNames;
    private object? _collector;

    private ExportedInstrument(IMetricFactory collectors, Kind kind, string name, string help, double[] buckets)
    {
        _collectors = collectors;
        _kind = kind;
        _name = name;
        _help = help;
        _buckets = buckets;
    }

    private enum Kind
    {
        /// <summary>Observable counter: each measurement is the running total.</summary>
        Total,

        /// <summary>Counter: each measurement is an increment.</summary>
        Increment,

        /// <summary>Observable gauge or up/down counter: each measurement is the current value.</summary>
        Level,

        /// <summary>Up/down counter: each measurement is a change.</summary>
        Change,

        Histogram,
    }

    public string Name => _name;

    /// <summary>The export of <paramref name="instrument"/>, or null for an instrument type Prometheus has no match for.</summary>
    public static ExportedInstrument? Create(Instrument instrument, IMetricFactory collectors)
    {
        var type = instrument.GetType();
        if (!type.IsGenericType)
        {
            return null;
        }

        var definition = type.GetGenericTypeDefinition();
        Kind? kind = definition == typeof(ObservableCounter<>) ? Kind.Total
            : definition == typeof(Counter<>) ? Kind.Increment
            : definition == typeof(ObservableGauge<>) || definition == typeof(ObservableUpDownCounter<>) || definition == typeof(Gauge<>) ? Kind.Level
            : definition == typeof(UpDownCounter<>) ? Kind.Change
            : definition == typeof(Histogram<>) ? Kind.Histogram
            : null;
        if (kind is null)
        {
            return null;
        }

        var buckets = (instrument as Histogram<double>)?.Advice?.HistogramBucketBoundaries ?? MetricBuckets.Latency;
        return new ExportedInstrument(collectors, kind.Value, PrometheusName(instrument.Name, instrument.Unit, kind is Kind.Total or Kind.Increment),
            instrument.Description ?? instrument.Name, [.. buckets]);
    }

    /// <summary>The Prometheus name of an instrument: <c>a.b.c</c> in unit <c>By</c> → <c>a_b_c_bytes</c>, plus <c>_total</c> for counters.</summary>
    public static string PrometheusName(string instrumentName, string? unit, bool counter)
    {
        var name = instrumentName.Replace('.', '_').Replace('-', '_');
        var suffix = unit switch
        {
            "By" => "_bytes",
            "s" => "_seconds",
            _ => "",
        };
        if (suffix.Length > 0 && !name.EndsWith(suffix, StringComparison.Ordinal))
        {
            name += suffix;
        }

        return counter && !name.EndsWith("_total", StringComparison.Ordinal) ? name + "_total" : name;
    }

    public void Record(double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var series = Find(tags) ?? Add(tags);
        if (series is null)
        {
            return;
        }

        switch (_kind)
        {
            case Kind.Total:
                series.Counter!.IncTo(value);
                break;
            case Kind.Increment:
                series.Counter!.Inc(value);
                break;
            case Kind.Level:
                series.Gauge!.Set(value);
                break;
            case Kind.Change:
                series.Gauge!.Inc(value);
                break;
            default:
                series.Histogram!.Observe(value);
                break;
        }
    }

    private Series? Find(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        foreach (var series in Volatile.Read(ref _series))
        {
            if (series.Matches(tags))
            {
                return series;
            }
        }

        return null;
    }

    // Once per new tag combination (a provider's first article, a new pool): allocation is fine here.
    private Series? Add(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var sorted = tags.ToArray();
        Array.Sort(sorted, static (a, b) => string.CompareOrdinal(a.Key, b.Key));
        var keys = sorted.Select(static t => t.Key.Replace('.', '_').Replace('-', '_')).ToArray();
        var values = sorted.Select(static t => t.Value?.ToString() ?? "").ToArray();
        lock (_gate)
        {
            if (Find(tags) is { } existing)
            {
                return existing;
            }

            _labelNames ??= keys;
            if (!_labelNames.SequenceEqual(keys))
            {
                return null; // one instrument, one label set: a measurement with other keys is dropped
            }

            var series = _kind switch
            {
                // A collector without labels is its own (only) series.
                Kind.Total or Kind.Increment => new Series(sorted, values.Length == 0 ? CounterCollector() : CounterCollector().WithLabels(values), null, null),
                Kind.Level or Kind.Change => new Series(sorted, null, values.Length == 0 ? GaugeCollector() : GaugeCollector().WithLabels(values), null),
                _ => new Series(sorted, null, null, values.Length == 0 ? HistogramCollector() : HistogramCollector().WithLabels(values)),
            };
            Volatile.Write(ref _series, [.. _series, series]);
            return series;
        }
    }

    private Counter CounterCollector() =>
        (Counter)(_collector ??= _collectors.CreateCounter(_name, _help, new CounterConfiguration { LabelNames = _labelNames }));

    private Gauge GaugeCollector() =>
        (Gauge)(_collector ??= _collectors.CreateGauge(_name, _help, new GaugeConfiguration { LabelNames = _labelNames }));

    private Histogram HistogramCollector() =>
        (Histogram)(_collector ??= _collectors.CreateHistogram(_name, _help, new HistogramConfiguration { LabelNames = _labelNames, Buckets = _buckets }));

    private sealed class Series(KeyValuePair<string, object?>[] tags, ICounter? counter, IGauge? gauge, IHistogram? histogram)
    {
        public ICounter? Counter { get; } = counter;

        public IGauge? Gauge { get; } = gauge;

        public IHistogram? Histogram { get; } = histogram;

        public bool Matches(ReadOnlySpan<KeyValuePair<string, object?>> other)
        {
            if (other.Length != tags.Length)
            {
                return false;
            }

            foreach (var tag in other)
            {
                var found = false;
                foreach (var mine in tags)
                {
                    if (mine.Key == tag.Key)
                    {
                        found = Equals(mine.Value, tag.Value);
                        break;
                    }
                }

                if (!found)
                {
                    return false;
                }
            }

            return true;
        }
    }
}
