using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Server.Traffic;

namespace NzbDav.Server.WebUi;

/// <summary>The Traffic page's call: bytes per consumer and per provider over the last 24 hours (by hour) or 30 days (by day), and the files that cost the most.</summary>
public static class UiTrafficEndpoints
{
    private const int TopFiles = 20;

    public static void MapUiTraffic(this RouteGroupBuilder api) =>
        api.MapGet("/traffic", ViewAsync).RequireAuthorization().Produces<UiTrafficView>().Produces<UiError>(StatusCodes.Status400BadRequest);

    private static async Task<IResult> ViewAsync(HttpContext context, IDbContextFactory<NzbDavDbContext> contexts, TrafficLedger ledger, TimeProvider time, string? range)
    {
        var cancellationToken = context.RequestAborted;
        var daily = range switch
        {
            null or "" or "24h" => false,
            "30d" => true,
            _ => (bool?)null,
        };
        if (daily is null)
            return Results.BadRequest(new UiError($"range must be 24h or 30d; '{range}' is not.", "range"));

        // What the last minute counted is on the page too.
        await ledger.FlushAsync(cancellationToken);
        var now = time.GetUtcNow().UtcDateTime;
        var step = daily.Value ? TimeSpan.FromDays(1) : TimeSpan.FromHours(1);
        var count = daily.Value ? 30 : 24;
        var last = daily.Value ? now.Date : new DateTime(now.Year, now.Month, now.Day, now.Hour, 0, 0, DateTimeKind.Utc);
        var from = last - (step * (count - 1));
        var buckets = Enumerable.Range(0, count).Select(i => from + (step * i)).ToList();
        int BucketOf(DateTime hour) => (int)((hour - from).Ticks / step.Ticks);

        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var rows = await db.TrafficHours.AsNoTracking().Where(h => h.HourStart >= from).ToListAsync(cancellationToken);
        // Files are counted by day: the 24-hour view takes today's and yesterday's.
        var filesFrom = daily.Value ? from : last.Date.AddDays(-1);
        var files = await db.TrafficFileDays.AsNoTracking().Where(f => f.DayStart >= filesFrom)
            .GroupBy(f => f.Path)
            .Select(g => new { Path = g.Key, Fetched = g.Sum(f => f.FetchedBytes), Served = g.Sum(f => f.ServedBytes), Reads = g.Sum(f => f.Reads) })
            .OrderByDescending(f => f.Fetched).Take(TopFiles)
            .ToListAsync(cancellationToken);

        UiTrafficSeries Series(string name, IEnumerable<Data.Entities.TrafficHour> of)
        {
            var received = new long[count];
            var served = new long[count];
            foreach (var row in of)
            {
                var bucket = BucketOf(row.HourStart);
                if (bucket < 0 || bucket >= count)
                    continue;
                received[bucket] += row.ReceivedBytes;
                served[bucket] += row.ServedBytes;
            }
            return new UiTrafficSeries { Name = name, Received = received, Served = served, ReceivedTotal = received.Sum(), ServedTotal = served.Sum() };
        }

        var consumers = rows.GroupBy(r => r.Consumer).Select(g => Series(g.Key, g))
            .OrderByDescending(s => s.ReceivedTotal).ThenByDescending(s => s.ServedTotal).ToList();
        var providers = rows.Where(r => r.Provider.Length > 0).GroupBy(r => r.Provider).Select(g => Series(g.Key, g))
            .OrderByDescending(s => s.ReceivedTotal).ToList();
        return Results.Ok(new UiTrafficView
        {
            Range = daily.Value ? "30d" : "24h",
            FilesFrom = new DateTimeOffset(filesFrom, TimeSpan.Zero),
            BucketSeconds = (int)step.TotalSeconds,
            Buckets = [.. buckets.Select(b => new DateTimeOffset(b, TimeSpan.Zero))],
            Consumers = consumers,
            Providers = providers,
            TopFiles = [.. files.Select(f => new UiTrafficFile { Path = f.Path, FetchedBytes = f.Fetched, ServedBytes = f.Served, Reads = f.Reads })],
        });
    }
}

/// <summary>
/// Traffic over `range` (24h by hour, 30d by day): `buckets` are the starts of the periods (UTC);
/// each series has one value per bucket. `consumers`: bytes received from providers for each consumer
/// (a client and how it read, "queue", "health check", "sessions") and bytes served to it;
/// `providers`: bytes each provider sent; `topFiles`: the files whose reads fetched the most.
/// </summary>
public sealed record UiTrafficView
{
    public required string Range { get; init; }

    public required int BucketSeconds { get; init; }

    /// <summary>Start of the period `topFiles` covers (files are counted by UTC day: for 24h, since yesterday 00:00 UTC).</summary>
    public required DateTimeOffset FilesFrom { get; init; }

    public required IReadOnlyList<DateTimeOffset> Buckets { get; init; }

    public required IReadOnlyList<UiTrafficSeries> Consumers { get; init; }

    public required IReadOnlyList<UiTrafficSeries> Providers { get; init; }

    public required IReadOnlyList<UiTrafficFile> TopFiles { get; init; }
}

/// <summary>One consumer's or provider's bytes per bucket: received from providers and served to clients, with their totals.</summary>
public sealed record UiTrafficSeries
{
    public required string Name { get; init; }

    public required IReadOnlyList<long> Received { get; init; }

    public required IReadOnlyList<long> Served { get; init; }

    public required long ReceivedTotal { get; init; }

    public required long ServedTotal { get; init; }
}

/// <summary>A file's reads over the range: decoded bytes fetched for them, bytes served, how many reads.</summary>
public sealed record UiTrafficFile
{
    public required string Path { get; init; }

    public required long FetchedBytes { get; init; }

    public required long ServedBytes { get; init; }

    public required int Reads { get; init; }
}
