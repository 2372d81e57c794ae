using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Extensions.Options;
using NzbDav.Usenet.Configuration;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Traffic;

namespace NzbDav.Server.Traffic;

/// <summary>
/// The providers' daily and monthly allowances (<c>DailyQuotaBytes</c>, <c>MonthlyQuotaBytes</c>,
/// <c>QuotaResetDay</c>, in UTC), checked by the client before each lease and each article. What a
/// provider sent in a period is what the traffic ledger saved for it since the period began (kept
/// across restarts), taken at each of its flushes, plus what the provider's sessions read since that
/// flush. A period that began after the last flush counts only the latter, until the next flush.
/// </summary>
public sealed class ProviderQuotas(IOptionsMonitor<UsenetOptions> usenet, TimeProvider time, UsenetMetrics? metrics = null) : IProviderQuotas
{
    private readonly ConcurrentDictionary<string, SavedSums> _saved = new(StringComparer.Ordinal);
    // The providers that have an allowance, by name, for the options instance in force: asked before
    // every article sent, so a provider without one costs a reference compare and a dictionary miss.
    private Limits? _limited;

    /// <inheritdoc />
    public string? Exhausted(string provider)
    {
        var options = Find(provider);
        if (options is null)
            return null;
        var usage = Usage(options);
        if (options.DailyQuotaBytes is { } daily && usage.Day >= daily)
            return $"daily quota of {ByteSize.Approximate(daily)} reached ({ByteSize.Approximate(usage.Day)} today); it resets at 00:00 UTC";
        if (options.MonthlyQuotaBytes is { } monthly && usage.Month >= monthly)
        {
            var next = MonthStart(usage.Now, options.QuotaResetDay).AddMonths(1);
            return $"monthly quota of {ByteSize.Approximate(monthly)} reached ({ByteSize.Approximate(usage.Month)} since {MonthStart(usage.Now, options.QuotaResetDay).ToString("MMM d", CultureInfo.InvariantCulture)}); it resets on {next.ToString("MMM d", CultureInfo.InvariantCulture)} at 00:00 UTC";
        }
        if (options.WindowQuotaBytes is { } window && usage.Window >= window)
        {
            return $"quota of {ByteSize.Approximate(window)} in {options.QuotaWindowHours.ToString(CultureInfo.InvariantCulture)} h reached ({ByteSize.Approximate(usage.Window)} since "
                + $"{WindowStart(usage.Now, options.QuotaWindowHours).ToString("MMM d HH:00", CultureInfo.InvariantCulture)} UTC); it frees up as those hours pass";
        }
        return null;
    }

    /// <inheritdoc />
    public long Headroom(string provider)
    {
        var options = Find(provider);
        if (options is null)
            return long.MaxValue;
        var usage = Usage(options);
        var left = long.MaxValue;
        if (options.DailyQuotaBytes is { } daily)
            left = Math.Min(left, daily - usage.Day);
        if (options.MonthlyQuotaBytes is { } monthly)
            left = Math.Min(left, monthly - usage.Month);
        if (options.WindowQuotaBytes is { } window)
            left = Math.Min(left, window - usage.Window);
        return Math.Max(0, left);
    }

    /// <summary>What <paramref name="provider"/> (one with an allowance) sent today and in its month so far, by its quota's periods.</summary>
    public (long Day, long Month) UsageOf(string provider)
    {
        var options = Find(provider);
        if (options is null)
            return (0, 0);
        var usage = Usage(options);
        return (usage.Day, usage.Month);
    }

    /// <summary>Periods the ledger needs sums for: the day, month and window start now of every provider with an allowance.</summary>
    public IReadOnlyList<(string Provider, DateTime DayStart, DateTime MonthStart, DateTime WindowStart)> Periods()
    {
        var now = time.GetUtcNow().UtcDateTime;
        return [.. usenet.CurrentValue.Providers.Where(HasAllowance)
            .Select(p => (p.Name, now.Date, MonthStart(now, p.QuotaResetDay), WindowStart(now, p.QuotaWindowHours)))];
    }

    /// <summary>
    /// The ledger saved everything up to <paramref name="receivedAt"/> (the provider's received
    /// total at that flush): the sums of the periods starting at the given days.
    /// </summary>
    public void Saved(string provider, DateTime dayStart, long dayBytes, DateTime monthStart, long monthBytes, long receivedAt) =>
        Saved(provider, dayStart, dayBytes, monthStart, monthBytes, DateTime.MinValue, 0, receivedAt);

    /// <summary>As above, with the rolling window's sum from <paramref name="windowStart"/>.</summary>
    public void Saved(string provider, DateTime dayStart, long dayBytes, DateTime monthStart, long monthBytes, DateTime windowStart, long windowBytes, long receivedAt) =>
        _saved[provider] = new SavedSums(dayStart, dayBytes, monthStart, monthBytes, windowStart, windowBytes, receivedAt);

    /// <summary>The first hour of a rolling window of <paramref name="hours"/> that ends with the hour holding <paramref name="now"/>.</summary>
    public static DateTime WindowStart(DateTime now, int hours) =>
        new DateTime(now.Year, now.Month, now.Day, now.Hour, 0, 0, DateTimeKind.Utc).AddHours(1 - Math.Max(1, hours));

    /// <summary>The start of the month period holding <paramref name="now"/> for a reset on <paramref name="resetDay"/>.</summary>
    public static DateTime MonthStart(DateTime now, int resetDay)
    {
        var thisMonth = new DateTime(now.Year, now.Month, Math.Clamp(resetDay, 1, 28), 0, 0, 0, DateTimeKind.Utc);
        return now >= thisMonth ? thisMonth : thisMonth.AddMonths(-1);
    }

    private (DateTime Now, long Day, long Month, long Window) Usage(UsenetProviderOptions options)
    {
        var now = time.GetUtcNow().UtcDateTime;
        var received = metrics?.For(options.Name).ReceivedBytes ?? 0;
        var saved = _saved.GetValueOrDefault(options.Name);
        var since = Math.Max(0, received - (saved?.ReceivedAt ?? 0));
        var day = (saved is not null && saved.DayStart == now.Date ? saved.DayBytes : 0) + since;
        var month = (saved is not null && saved.MonthStart == MonthStart(now, options.QuotaResetDay) ? saved.MonthBytes : 0) + since;
        // A window that moved on since the flush counts what was saved for the old one until the next: never less than was spent.
        var window = (saved is not null && saved.WindowStart != DateTime.MinValue ? saved.WindowBytes : 0) + since;
        return (now, day, month, window);
    }

    private UsenetProviderOptions? Find(string provider)
    {
        var current = usenet.CurrentValue;
        var limited = Volatile.Read(ref _limited);
        if (limited is null || !ReferenceEquals(limited.Options, current))
        {
            limited = new Limits(current, current.Providers.Where(HasAllowance).ToDictionary(p => p.Name, StringComparer.OrdinalIgnoreCase));
            Volatile.Write(ref _limited, limited);
        }
        return limited.ByName.GetValueOrDefault(provider);
    }

    private static bool HasAllowance(UsenetProviderOptions p) => p.DailyQuotaBytes is not null || p.MonthlyQuotaBytes is not null || p.WindowQuotaBytes is not null;

    private sealed record Limits(UsenetOptions Options, Dictionary<string, UsenetProviderOptions> ByName);

    private sealed record SavedSums(DateTime DayStart, long DayBytes, DateTime MonthStart, long MonthBytes, DateTime WindowStart, long WindowBytes, long ReceivedAt);
}
