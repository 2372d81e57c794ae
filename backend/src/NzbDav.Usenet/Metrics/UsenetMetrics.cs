using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Metrics;

/// <summary>
/// The <c>NzbDav.Usenet</c> meter: per provider, articles by outcome, decoded bytes, BODY latency,
/// sessions, refusals and breaker state; per limiter pool, permits and waiters. Counts are plain
/// totals kept by <see cref="ProviderMetrics"/> and published through observable counters, so every
/// series exists (at 0) from the moment its provider does, whenever a listener attaches; levels are
/// read from the pools' and the limiter's own snapshots at collection time. Register it as a
/// singleton; <see cref="UsenetClient"/> and <see cref="Nntp.NntpConnectionFactory"/> take it when
/// it is registered and record nothing without it.
/// </summary>
public sealed class UsenetMetrics
{
    /// <summary>The meter's name.</summary>
    public const string MeterName = "NzbDav.Usenet";

    private static readonly string[] OutcomeNames = ["ok", "missing", "crc_mismatch", "error"];
    private static readonly string[] PoolNames = ["streaming", "queue", "health_check"];

    private readonly ConcurrentDictionary<string, ProviderMetrics> _providers = new(StringComparer.Ordinal);
    private readonly Lock _gate = new();
    private readonly Histogram<double> _firstByte;
    private readonly Histogram<double> _duration;
    private UsenetClient[] _clients = [];

    public UsenetMetrics(IMeterFactory meterFactory)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        var meter = meterFactory.Create(MeterName);
        var latency = new InstrumentAdvice<double> { HistogramBucketBoundaries = MetricBuckets.Latency };
        _firstByte = meter.CreateHistogram("nzbdav.provider.body.first_byte", "s",
            "Time from a BODY command being queued on a session to its status line (pipelined commands include the answers ahead of them)", null, latency);
        _duration = meter.CreateHistogram("nzbdav.provider.body.duration", "s",
            "Time from a BODY command being queued on a session to the end of its article, for articles read to their end", null, latency);

        meter.CreateObservableCounter("nzbdav.provider.fetched", () => PerProvider(static p => p.FetchedBytes), "By",
            "Decoded bytes received from the provider (every BODY answer, whatever its outcome)");
        meter.CreateObservableCounter("nzbdav.provider.received", () => PerProvider(static p => p.ReceivedBytes), "By",
            "Bytes read from the provider's sessions as they came off the socket: every answer whole (yEnc, status lines, greetings), what the provider counts as sent");
        meter.CreateObservableCounter("nzbdav.provider.articles", ObserveArticles, "{article}",
            "BODY answers by outcome: ok, missing (430), crc_mismatch, error");
        meter.CreateObservableCounter("nzbdav.provider.connections.refused", () => PerProvider(static p => p.RefusedFull), "{connection}",
            "New connections the provider refused as full (400/502 greeting)");
        meter.CreateObservableCounter("nzbdav.provider.breaker.trips", () => PerProvider(static p => p.BreakerTrips), "{trip}",
            "Times the provider's circuit breaker opened");

        meter.CreateObservableUpDownCounter("nzbdav.provider.sessions.open", () => PerPool(static s => s.Open), "{session}",
            "Sessions open or being opened, as the provider counts them");
        meter.CreateObservableUpDownCounter("nzbdav.provider.sessions.leased", () => PerPool(static s => s.InUse), "{session}",
            "Sessions lent out to a caller");
        meter.CreateObservableUpDownCounter("nzbdav.provider.sessions.max", () => PerPool(static s => s.MaxConnections), "{session}",
            "The provider's MaxConnections");
        meter.CreateObservableUpDownCounter("nzbdav.provider.session_waiters", () => PerPool(static s => s.Waiters), "{caller}",
            "Callers waiting for one of the provider's sessions");
        meter.CreateObservableGauge("nzbdav.provider.breaker.state", ObserveBreakers, "{state}",
            "1 for the circuit breaker's current state (closed, open, half_open), 0 for the others");

        meter.CreateObservableUpDownCounter("nzbdav.limiter.permits.in_use", () => PerLimiterPool(static (s, _, k) => s.InUseOf(k)), "{permit}",
            "GlobalOperationLimiter permits held, per pool");
        meter.CreateObservableUpDownCounter("nzbdav.limiter.permits.guaranteed", () => PerLimiterPool(static (_, o, k) => o.GuaranteeOf(k)), "{permit}",
            "Permits the pool always gets back first");
        meter.CreateObservableUpDownCounter("nzbdav.limiter.permits.max", () => PerLimiterPool(static (_, o, k) => o.MaximumOf(k)), "{permit}",
            "Most permits the pool may hold by borrowing");
        meter.CreateObservableUpDownCounter("nzbdav.limiter.waiters", () => PerLimiterPool(static (s, _, k) => s.WaitingOf(k)), "{caller}",
            "Callers waiting for a permit, per pool");

        meter.CreateObservableGauge("nzbdav.bandwidth.cap", () => OfBandwidth(static b => b.GlobalRate ?? 0), "By/s",
            "The provider bandwidth cap in force now (0: none now), from Usenet:Bandwidth and its schedule");
        meter.CreateObservableUpDownCounter("nzbdav.bandwidth.waiting", () => OfBandwidth(static b => b.Waiting), "{read}",
            "Socket reads waiting for their turn under the bandwidth cap now");
        meter.CreateObservableCounter("nzbdav.bandwidth.waited", () => OfBandwidth(static b => b.WaitedReads), "{read}",
            "Socket reads that waited for their turn under the bandwidth cap, since start");
    }

    private IEnumerable<Measurement<long>> OfBandwidth(Func<Limiting.BandwidthLimiter, long> value)
    {
        foreach (var client in Clients)
        {
            if (client.Bandwidth is { IsConfigured: true } bandwidth)
            {
                yield return new Measurement<long>(value(bandwidth));
            }
        }
    }

    /// <summary>The instruments of <paramref name="provider"/> (created on first use, then shared).</summary>
    public ProviderMetrics For(string provider)
    {
        ArgumentNullException.ThrowIfNull(provider);
        return _providers.GetOrAdd(provider, static (name, self) => new ProviderMetrics(name, self._firstByte, self._duration), this);
    }

    /// <summary>Every provider's instruments so far.</summary>
    public IReadOnlyList<ProviderMetrics> Providers => [.. _providers.Values];

    /// <summary>Publishes <paramref name="client"/>'s pools, breakers and limiter until <see cref="Detach"/>.</summary>
    internal void Attach(UsenetClient client)
    {
        lock (_gate)
        {
            _clients = [.. _clients, client];
        }
    }

    internal void Detach(UsenetClient client)
    {
        lock (_gate)
        {
            _clients = [.. _clients.Where(c => c != client)];
        }
    }

    private UsenetClient[] Clients => Volatile.Read(ref _clients);

    private List<Measurement<long>> PerProvider(Func<ProviderMetrics, long> read)
    {
        var measurements = new List<Measurement<long>>(_providers.Count);
        foreach (var provider in _providers.Values)
        {
            measurements.Add(new Measurement<long>(read(provider), provider.ProviderTag));
        }

        return measurements;
    }

    private List<Measurement<long>> ObserveArticles()
    {
        var measurements = new List<Measurement<long>>(_providers.Count * OutcomeNames.Length);
        foreach (var provider in _providers.Values)
        {
            for (var outcome = 0; outcome < OutcomeNames.Length; outcome++)
            {
                measurements.Add(new Measurement<long>(provider.Articles((ArticleOutcome)outcome), provider.OutcomeTags[outcome]));
            }
        }

        return measurements;
    }

    private List<Measurement<int>> PerPool(Func<ConnectionPoolStats, int> read)
    {
        var measurements = new List<Measurement<int>>();
        foreach (var client in Clients)
        {
            foreach (var status in client.GetProviderStatus())
            {
                measurements.Add(new Measurement<int>(read(status.Pool), For(status.Name).ProviderTag));
            }
        }

        return measurements;
    }

    private List<Measurement<int>> ObserveBreakers()
    {
        var measurements = new List<Measurement<int>>();
        foreach (var client in Clients)
        {
            foreach (var status in client.GetProviderStatus())
            {
                measurements.Add(State(status, CircuitState.Closed, "closed"));
                measurements.Add(State(status, CircuitState.Open, "open"));
                measurements.Add(State(status, CircuitState.HalfOpen, "half_open"));
            }
        }

        return measurements;

        static Measurement<int> State(ProviderStatus status, CircuitState state, string name) =>
            new(status.Circuit == state ? 1 : 0, new KeyValuePair<string, object?>("provider", status.Name), new KeyValuePair<string, object?>("state", name));
    }

    private List<Measurement<int>> PerLimiterPool(Func<LimiterStats, LimiterOptions, OperationKind, int> read)
    {
        var measurements = new List<Measurement<int>>();
        foreach (var limiter in Clients.Select(static c => c.Limiter).Distinct())
        {
            var stats = limiter.GetStats();
            var options = limiter.Options;
            for (var kind = 0; kind < PoolNames.Length; kind++)
            {
                measurements.Add(new Measurement<int>(read(stats, options, (OperationKind)kind), new KeyValuePair<string, object?>("pool", PoolNames[kind])));
            }
        }

        return measurements;
    }
}
