using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.WebDav;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Traffic;

namespace NzbDav.Server.Traffic;

/// <summary>
/// Who caused the bytes, per hour, kept 90 days: every minute (and when the server stops, and before
/// the Traffic page reads) it takes what the accounts counted since the last time and adds it to the
/// hour's rows (per file: the day's). A GET's bytes go to its consumer (client, account, probe or playback) as named by
/// how much it has read so far; queue ingestion and health checks have accounts of their own; what
/// a provider sent outside any lease (greetings, logins) is "sessions", so each provider's rows add
/// up to what it sent. Reading counters costs nothing on the read path: each socket read adds to
/// one counter, and this runs once a minute.
/// </summary>
public sealed partial class TrafficLedger(
    IDbContextFactory<NzbDavDbContext> contexts,
    UsenetClient client,
    ActiveStreams streams,
    TimeProvider time,
    ILogger<TrafficLedger> logger,
    UsenetMetrics? metrics = null,
    System.Diagnostics.Metrics.IMeterFactory? meters = null,
    ProviderQuotas? quotas = null) : BackgroundService
{
    /// <summary>The meter of the traffic counters (<c>nzbdav_traffic_*</c>).</summary>
    public const string MeterName = "NzbDav.Traffic";

    /// <summary>The consumer of provider bytes no lease named: greetings, logins, keep-alives.</summary>
    public const string Sessions = "sessions";

    public static readonly TimeSpan Retention = TimeSpan.FromDays(90);

    /// <summary>How long per-file days are kept: the Traffic page shows at most 30 days.</summary>
    public static readonly TimeSpan FileRetention = TimeSpan.FromDays(30);

    private static readonly TimeSpan Interval = TimeSpan.FromMinutes(1);

    private readonly SemaphoreSlim _flushing = new(1, 1);
    private readonly Dictionary<(TrafficAccount Account, string Provider), long> _seenReceived = [];
    private readonly Dictionary<long, long> _seenSent = [];
    private readonly Dictionary<string, long> _seenProviderTotals = new(StringComparer.Ordinal);
    private readonly Dictionary<(string Consumer, string Provider), (long Received, long Served)> _totals = [];
    private readonly Lock _totalsGate = new();
    // Bodies that ended: counted once more at the next flush, for answers that arrived after the end.
    private List<ServedBody> _draining = [];
    // Counted but not saved yet (a save failed): saved with the next flush.
    private readonly Dictionary<(DateTime Hour, string Consumer, string Provider), (long Received, long Served)> _unsaved = [];
    private readonly Dictionary<(DateTime Day, string Path), (long Fetched, long Served, int Reads)> _unsavedFiles = [];
    private DateTime _prunedHour;
    private readonly System.Diagnostics.Metrics.Meter? _meter = CreateMeter(meters);
    private int _observed;

    /// <summary>Bytes per consumer and provider since the server started (the metrics' view).</summary>
    public IReadOnlyList<KeyValuePair<(string Consumer, string Provider), (long Received, long Served)>> Totals
    {
        get
        {
            lock (_totalsGate)
            {
                return [.. _totals];
            }
        }
    }

    /// <summary>Adds what was counted since the last flush to the current hour's rows.</summary>
    public async Task FlushAsync(CancellationToken cancellationToken)
    {
        Observe();
        await _flushing.WaitAsync(cancellationToken);
        try
        {
            var now = time.GetUtcNow().UtcDateTime;
            var hour = new DateTime(now.Year, now.Month, now.Day, now.Hour, 0, 0, DateTimeKind.Utc);
            var rows = new Dictionary<(string Consumer, string Provider), (long Received, long Served)>();
            var files = new Dictionary<string, (long Fetched, long Served, int Reads)>(StringComparer.Ordinal);
            var perProvider = new Dictionary<string, long>(StringComparer.Ordinal);

            void Add(string consumer, string provider, long received, long served)
            {
                if (received == 0 && served == 0)
                    return;
                rows.TryGetValue((consumer, provider), out var row);
                rows[(consumer, provider)] = (row.Received + received, row.Served + served);
                if (received > 0)
                    perProvider[provider] = perProvider.GetValueOrDefault(provider) + received;
            }

            void TakeAccount(TrafficAccount account, string consumer)
            {
                foreach (var (provider, total) in account.Received())
                {
                    var seen = _seenReceived.GetValueOrDefault((account, provider));
                    _seenReceived[(account, provider)] = total;
                    Add(consumer, provider, total - seen, 0);
                }
            }

            void TakeBody(ServedBody body)
            {
                if (body.Traffic is not { } traffic)
                    return;
                var consumer = TrafficConsumers.Of(traffic.UserAgent, traffic.User, body.From, body.Sent, body.FileSize).Key;
                TakeAccount(traffic.Account, consumer);
                var sent = body.Sent;
                var seenSent = _seenSent.GetValueOrDefault(body.Id);
                _seenSent[body.Id] = sent;
                Add(consumer, "", 0, sent - seenSent);
            }

            foreach (var account in client.Traffic.All)
                TakeAccount(account, account.Consumer);
            foreach (var body in _draining)
            {
                TakeBody(body);
                Forget(body);
            }

            var ended = streams.TakeFinished();
            foreach (var body in streams.Current)
                TakeBody(body);
            foreach (var body in ended)
            {
                TakeBody(body);
                if (body.Traffic is not null)
                {
                    files.TryGetValue(body.Path, out var file);
                    files[body.Path] = (file.Fetched + (body.FetchedBytes ?? 0), file.Served + body.Sent, file.Reads + 1);
                }
            }
            _draining = [.. ended];

            // Read last, so it holds at least what the accounts above counted.
            foreach (var provider in metrics?.Providers ?? [])
            {
                var total = provider.ReceivedBytes;
                var seen = _seenProviderTotals.GetValueOrDefault(provider.Provider);
                _seenProviderTotals[provider.Provider] = total;
                var outside = total - seen - perProvider.GetValueOrDefault(provider.Provider);
                if (outside > 0)
                    Add(Sessions, provider.Provider, outside, 0);
            }

            lock (_totalsGate)
            {
                foreach (var (key, (received, served)) in rows)
                {
                    var total = _totals.GetValueOrDefault(key);
                    _totals[key] = (total.Received + received, total.Served + served);
                }
            }

            foreach (var ((consumer, provider), (received, served)) in rows)
            {
                var pending = _unsaved.GetValueOrDefault((hour, consumer, provider));
                _unsaved[(hour, consumer, provider)] = (pending.Received + received, pending.Served + served);
            }
            foreach (var (path, (fetched, served, reads)) in files)
            {
                var pending = _unsavedFiles.GetValueOrDefault((hour.Date, path));
                _unsavedFiles[(hour.Date, path)] = (pending.Fetched + fetched, pending.Served + served, pending.Reads + reads);
            }
            if (_unsaved.Count > 0 || _unsavedFiles.Count > 0)
            {
                await SaveAsync(cancellationToken);
                _unsaved.Clear();
                _unsavedFiles.Clear();
            }
            if (quotas is not null)
                await TellQuotasAsync(quotas, cancellationToken);
            if (hour != _prunedHour)
            {
                _prunedHour = hour;
                await PruneAsync(hour - Retention, hour.Date - FileRetention, cancellationToken);
            }
        }
        finally
        {
            _flushing.Release();
        }
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        Observe();
        using var timer = new PeriodicTimer(Interval, time);
        try
        {
            // At once: the providers' quotas learn what earlier runs spent before much is asked of them.
            await FlushQuietlyAsync(stoppingToken);
            while (await timer.WaitForNextTickAsync(stoppingToken))
                await FlushQuietlyAsync(stoppingToken);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        // What the last minute counted survives the restart.
        await FlushQuietlyAsync(CancellationToken.None);
    }

    private async Task FlushQuietlyAsync(CancellationToken cancellationToken)
    {
        try
        {
            await FlushAsync(cancellationToken);
        }
        catch (Exception error) when (error is DbUpdateException or InvalidOperationException or System.Data.Common.DbException)
        {
            // What was counted stays unsaved and goes with the next flush.
            LogFlushFailed(logger, error.Message);
        }
    }

    private static System.Diagnostics.Metrics.Meter? CreateMeter(System.Diagnostics.Metrics.IMeterFactory? meters) => meters?.Create(new System.Diagnostics.Metrics.MeterOptions(MeterName));

    // The instruments read the totals this ledger keeps (as of its last flush, at most a minute old).
    private void Observe()
    {
        if (_meter is null || Interlocked.Exchange(ref _observed, 1) != 0)
            return;
        _meter.CreateObservableCounter("nzbdav.traffic.received", () => Totals
            .Where(t => t.Key.Provider.Length > 0)
            .Select(t => new System.Diagnostics.Metrics.Measurement<long>(t.Value.Received,
                new KeyValuePair<string, object?>("consumer", t.Key.Consumer), new KeyValuePair<string, object?>("provider", t.Key.Provider))),
            "By", "Bytes read from each provider for each consumer since the server started (updated every minute)");
        _meter.CreateObservableCounter("nzbdav.traffic.served", () => Totals
            .Where(t => t.Key.Provider.Length == 0)
            .Select(t => new System.Diagnostics.Metrics.Measurement<long>(t.Value.Served, new KeyValuePair<string, object?>("consumer", t.Key.Consumer))),
            "By", "Bytes served to each consumer since the server started (updated every minute)");
    }

    private void Forget(ServedBody body)
    {
        _seenSent.Remove(body.Id);
        if (body.Traffic is { } traffic)
        {
            foreach (var key in _seenReceived.Keys.Where(k => ReferenceEquals(k.Account, traffic.Account)).ToList())
                _seenReceived.Remove(key);
        }
    }

    private async Task SaveAsync(CancellationToken cancellationToken)
    {
        await using var context = await contexts.CreateDbContextAsync(cancellationToken);
        foreach (var hour in _unsaved.Keys.Select(k => k.Hour).Distinct().ToList())
        {
            var existing = await context.TrafficHours.Where(h => h.HourStart == hour).ToDictionaryAsync(h => (h.Consumer, h.Provider), cancellationToken);
            foreach (var ((_, consumer, provider), (received, served)) in _unsaved.Where(u => u.Key.Hour == hour))
            {
                if (existing.TryGetValue((consumer, provider), out var row))
                {
                    row.ReceivedBytes += received;
                    row.ServedBytes += served;
                }
                else
                {
                    context.TrafficHours.Add(new TrafficHour { HourStart = hour, Consumer = consumer, Provider = provider, ReceivedBytes = received, ServedBytes = served });
                }
            }
        }

        foreach (var day in _unsavedFiles.Keys.Select(k => k.Day).Distinct().ToList())
        {
            var paths = _unsavedFiles.Keys.Where(k => k.Day == day).Select(k => k.Path).ToList();
            var known = await context.TrafficFileDays.Where(f => f.DayStart == day && paths.Contains(f.Path)).ToDictionaryAsync(f => f.Path, cancellationToken);
            foreach (var ((_, path), (fetched, served, reads)) in _unsavedFiles.Where(u => u.Key.Day == day))
            {
                if (known.TryGetValue(path, out var file))
                {
                    file.FetchedBytes += fetched;
                    file.ServedBytes += served;
                    file.Reads += reads;
                }
                else
                {
                    context.TrafficFileDays.Add(new TrafficFileDay { DayStart = day, Path = path, FetchedBytes = fetched, ServedBytes = served, Reads = reads });
                }
            }
        }

        await context.SaveChangesAsync(cancellationToken);
    }

    // Everything up to this flush is saved: each provider's sums for its quota periods, and its received total now.
    private async Task TellQuotasAsync(ProviderQuotas quotas, CancellationToken cancellationToken)
    {
        var periods = quotas.Periods();
        if (periods.Count == 0)
            return;
        await using var context = await contexts.CreateDbContextAsync(cancellationToken);
        foreach (var (provider, dayStart, monthStart, windowStart) in periods)
        {
            var from = new[] { dayStart, monthStart, windowStart }.Min();
            var hours = await context.TrafficHours.AsNoTracking().Where(h => h.Provider == provider && h.HourStart >= from)
                .GroupBy(h => h.HourStart).Select(g => new { Hour = g.Key, Bytes = g.Sum(h => h.ReceivedBytes) }).ToListAsync(cancellationToken);
            quotas.Saved(provider, dayStart, hours.Where(h => h.Hour >= dayStart).Sum(h => h.Bytes),
                monthStart, hours.Where(h => h.Hour >= monthStart).Sum(h => h.Bytes),
                windowStart, hours.Where(h => h.Hour >= windowStart).Sum(h => h.Bytes), _seenProviderTotals.GetValueOrDefault(provider));
        }
    }

    private async Task PruneAsync(DateTime hoursBefore, DateTime filesBefore, CancellationToken cancellationToken)
    {
        await using var context = await contexts.CreateDbContextAsync(cancellationToken);
        await context.TrafficHours.Where(h => h.HourStart < hoursBefore).ExecuteDeleteAsync(cancellationToken);
        await context.TrafficFileDays.Where(f => f.DayStart < filesBefore).ExecuteDeleteAsync(cancellationToken);
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "The traffic ledger could not save the last minute's counts ({Reason}); they are saved with the next minute's")]
    private static partial void LogFlushFailed(ILogger logger, string reason);
}
