using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Mount;
using NzbDav.Server.WebDav;
using NzbDav.Streaming;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Live;

/// <summary>
/// Reads the counters the server keeps anyway (streams, providers, limiter, the managed mount, the streaming
/// engine's provider economy: segment cache and read-ahead budget) and turns the change
/// since the previous sample into rates. Called only by the live feed's loop, one sample per tick,
/// and only while someone listens.
/// </summary>
public sealed class DashboardSampler(
    StreamingMetrics streaming,
    UsenetMetrics usenet,
    UsenetClient client,
    GlobalOperationLimiter limiter,
    ActiveStreams streams,
    MountState mount,
    IOptionsMonitor<MountOptions> mountOptions,
    IOptionsMonitor<NzbDavOptions> options,
    TimeProvider time,
    Cluster.ClusterView? cluster = null)
{
    private readonly Dictionary<long, long> _streamSent = [];
    private readonly Dictionary<string, (long Articles, long Bytes, long Answers, long Ticks)> _providerTotals = new(StringComparer.OrdinalIgnoreCase);
    private long _served;
    private long _fetched;
    private long _previousTicks;
    private long _sequence;

    private static string StateOf(BreakerSnapshot breaker) => breaker.State switch
    {
        CircuitState.Open => "down",
        CircuitState.HalfOpen => "retrying",
        _ => breaker.ConsecutiveFailures > 0 ? "failing" : "ok",
    };

    public DashboardSnapshot Sample()
    {
        var now = time.GetTimestamp();
        var seconds = _previousTicks == 0 ? 0 : time.GetElapsedTime(_previousTicks, now).TotalSeconds;
        _previousTicks = now;

        var providers = new List<ProviderView>();
        long fetched = 0;
        foreach (var status in client.GetProviderStatus())
        {
            var metrics = usenet.For(status.Name);
            var articles = metrics.Articles(ArticleOutcome.Ok) + metrics.Articles(ArticleOutcome.Missing)
                + metrics.Articles(ArticleOutcome.CrcMismatch) + metrics.Articles(ArticleOutcome.Error);
            var bytes = metrics.FetchedBytes;
            var (answers, ticks) = metrics.FirstByteTotals;
            fetched += bytes;
            var before = _providerTotals.TryGetValue(status.Name, out var previous) ? previous : (Articles: articles, Bytes: bytes, Answers: answers, Ticks: ticks);
            _providerTotals[status.Name] = (articles, bytes, answers, ticks);
            // The mean time to the status line of the answers this tick; null in a tick without any.
            double? latency = answers > before.Answers
                ? Math.Round((ticks - before.Ticks) * 1000.0 / System.Diagnostics.Stopwatch.Frequency / (answers - before.Answers), 1)
                : null;
            var pool = status.Pool;
            var quota = client.Quotas?.Exhausted(status.Name);
            var state = StateOf(status.Breaker);
            providers.Add(new ProviderView(
                status.Name, status.Role.ToString(), status.Priority, status.Circuit.ToString(),
                pool.Open, pool.InUse, pool.Idle, pool.MaxConnections, pool.Waiters,
                Rate(articles - before.Articles, seconds), Rate(bytes - before.Bytes, seconds), latency,
                metrics.Articles(ArticleOutcome.Missing), metrics.Articles(ArticleOutcome.Error), metrics.Articles(ArticleOutcome.CrcMismatch))
            {
                // A provider that cannot connect is down whatever its allowance says; one that works but spent it is "quota".
                State = quota is not null && state == "ok" ? "quota" : state,
                Quota = quota,
                ConnectionFailures = status.Breaker.TotalFailures,
                FailingSince = status.Breaker.FailingSince,
                RetryAt = status.Breaker.RetryAt,
                LastError = status.Breaker.LastError,
                LastErrorAt = status.Breaker.LastErrorAt,
            });
        }

        var served = streaming.ServedBytes;
        var servedRate = _sequence == 0 ? 0 : Rate(served - _served, seconds);
        var fetchedRate = _sequence == 0 ? 0 : Rate(fetched - _fetched, seconds);
        _served = served;
        _fetched = fetched;

        var views = new List<StreamView>();
        var seen = new HashSet<long>();
        foreach (var stream in streams.Current)
        {
            var sent = stream.Sent;
            var before = _streamSent.GetValueOrDefault(stream.Id, sent);
            _streamSent[stream.Id] = sent;
            seen.Add(stream.Id);
            var streamFetched = stream.FetchedBytes;
            views.Add(new StreamView(stream.Id, stream.Path, stream.Client, stream.From + sent, stream.From + stream.Length, stream.FileSize, Rate(sent - before, seconds), stream.Started, stream.ReadAheadBytes,
                sent, streamFetched, stream.SharedBytes, StreamView.Ratio(streamFetched, sent)));
        }

        foreach (var gone in _streamSent.Keys.Where(id => !seen.Contains(id)).ToList())
            _streamSent.Remove(gone);

        var limiterView = LimiterView.Of(limiter.GetStats(), limiter.Options);

        return new DashboardSnapshot(++_sequence, time.GetUtcNow(), seconds, servedRate, fetchedRate, served, fetched, views, providers, limiterView,
            MountView.Of(mount.Current, mountOptions.CurrentValue.Enabled, options.CurrentValue.MountPath), EconomyView.Of(streaming), DiskCacheView.Of(streaming.DiskStore),
            BandwidthView.Of(client.Bandwidth), cluster?.Nodes);
    }

    private static double Rate(long delta, double seconds) => seconds <= 0 ? 0 : Math.Max(0, delta) / seconds;
}
