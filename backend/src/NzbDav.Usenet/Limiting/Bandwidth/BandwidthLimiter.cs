using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Limiting;

/// <summary>
/// The bandwidth caps on provider traffic: a global one that follows the time-of-day schedule of
/// <see cref="BandwidthOptions"/>, and one per provider with
/// <see cref="UsenetProviderOptions.MaxBytesPerSecond"/>. Each lease gets a ticket that its session's
/// receive loop asks before every socket read (<see cref="IReceiveThrottle"/>); while nothing caps,
/// that costs two reads of a field. Settings apply at once (<see cref="Apply"/>), and the schedule's
/// rate is looked at again at each window's edge and at least every minute, so a clock that jumps
/// is followed within one.
/// </summary>
public sealed partial class BandwidthLimiter : IDisposable
{
    private static readonly TimeSpan LongestLook = TimeSpan.FromMinutes(1);

    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly BandwidthGate _global;
    private readonly ConcurrentDictionary<string, BandwidthGate> _providers = new(StringComparer.OrdinalIgnoreCase);
    private readonly ITimer _timer;
    private readonly Lock _apply = new();
    private BandwidthSchedule _schedule = BandwidthSchedule.Parse(null, null);

    public BandwidthLimiter(TimeProvider time, ILogger<BandwidthLimiter> logger)
    {
        ArgumentNullException.ThrowIfNull(time);
        ArgumentNullException.ThrowIfNull(logger);
        _time = time;
        _logger = logger;
        _global = new BandwidthGate(time);
        _timer = time.CreateTimer(static state => ((BandwidthLimiter)state!).Follow(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>The global rate in force now, in bytes per second (null: none).</summary>
    public long? GlobalRate => _global.Rate is var rate and > 0 ? rate : null;

    /// <summary>
    /// Whether a cap binds now (a read queued under the global cap or a provider's within the last
    /// second): answers are slow because of it, not because of the providers.
    /// </summary>
    public bool IsBinding
    {
        get
        {
            if (_global.IsBinding)
            {
                return true;
            }
            foreach (var gate in _providers.Values)
            {
                if (gate.IsBinding)
                {
                    return true;
                }
            }
            return false;
        }
    }

    /// <summary>Whether any cap is configured: the global one, a window of the schedule, or a provider's.</summary>
    public bool IsConfigured => _schedule.EverCaps || _providers.Values.Any(static g => g.Rate > 0);

    /// <summary>Reads that had to wait their turn under the global cap, since the start.</summary>
    public long WaitedReads => _global.GrantsWaited;

    /// <summary>Reads waiting for their turn under the global cap now.</summary>
    public int Waiting => _global.Waiting;

    /// <summary>The cap of <paramref name="provider"/> (null: none).</summary>
    public long? ProviderRate(string provider) => _providers.TryGetValue(provider, out var gate) && gate.Rate > 0 ? gate.Rate : null;

    /// <summary>Applies the caps and schedule of <paramref name="options"/> (validated by the caller).</summary>
    public void Apply(UsenetOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var schedule = options.Bandwidth.Parse();
        lock (_apply)
        {
            _schedule = schedule;
            foreach (var provider in options.Providers)
            {
                if (provider.MaxBytesPerSecond is { } rate)
                {
                    _providers.GetOrAdd(provider.Name, _ => new BandwidthGate(_time)).SetRate(rate);
                }
                else if (_providers.TryGetValue(provider.Name, out var gate))
                {
                    gate.SetRate(null);
                }
            }
            foreach (var (name, gate) in _providers)
            {
                if (!options.Providers.Any(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase)))
                {
                    gate.SetRate(null);
                }
            }
        }
        Follow();
    }

    /// <summary>The throttle for a lease on <paramref name="provider"/> working for <paramref name="kind"/> in <paramref name="flow"/> (its fetch group).</summary>
    internal IReceiveThrottle Ticket(string provider, OperationKind kind, object? flow) =>
        new BandwidthTicket(_providers.TryGetValue(provider, out var gate) ? gate : null, _global, kind, flow);

    public void Dispose()
    {
        _timer.Dispose();
        _global.Dispose();
        foreach (var gate in _providers.Values)
        {
            gate.Dispose();
        }
    }

    /// <summary>Sets the global gate to the schedule's rate now, and looks again at the next edge (a minute at most).</summary>
    private void Follow()
    {
        lock (_apply)
        {
            var local = TimeZoneInfo.ConvertTime(_time.GetUtcNow(), _time.LocalTimeZone);
            var now = TimeOnly.FromDateTime(local.DateTime);
            var rate = _schedule.RateAt(now);
            if (rate != GlobalRate)
            {
                BandwidthLog.RateChanged(_logger, rate is { } r ? Configuration.ByteSize.Approximate(r) + "/s" : "unlimited", now.ToString("HH:mm", System.Globalization.CultureInfo.InvariantCulture));
            }
            _global.SetRate(rate);
            var next = _schedule.UntilNextChange(now) is { } until && until < LongestLook ? until + TimeSpan.FromMilliseconds(50) : LongestLook;
            _timer.Change(next, Timeout.InfiniteTimeSpan);
        }
    }

    private static partial class BandwidthLog
    {
        [LoggerMessage(EventId = 4301, Level = LogLevel.Information, Message = "Provider bandwidth cap is now {Rate} (at {Time} server time)")]
        public static partial void RateChanged(ILogger logger, string rate, string time);
    }
}
