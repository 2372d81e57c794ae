using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Fetching;

/// <summary>
/// How a <see cref="FetchGroup"/> works for its consumer: which limiter pool its leases count
/// against, how many it may hold, how many requests it keeps out, how hard it retries, and whether
/// it races the request its reader waits for. Every consumer's differences are here, not in code.
/// </summary>
public sealed record FetchGroupOptions
{
    /// <summary>The limiter pool the group's leases are drawn from.</summary>
    public required OperationKind Kind { get; init; }

    /// <summary>Who the group's bytes are for (its sessions count what they read there); null: the account of <see cref="Kind"/>.</summary>
    public Traffic.TrafficAccount? Account { get; init; }

    /// <summary>Most leases (connections) held at once. Default 20.</summary>
    public int ConnectionCap { get; init; } = 20;

    /// <summary>Most requests out at once over all connections. Default: no limit beyond the pipelines.</summary>
    public int MaxInFlight { get; init; } = int.MaxValue;

    /// <summary>
    /// Failed attempts (430s aside) after which a request is given up. Default 3. Null: each
    /// provider in force up to the client's attempts per provider, as a single call expects.
    /// </summary>
    public int? MaxAttempts { get; init; } = 3;

    /// <summary>
    /// Leases are held for this many times the current demand (requests queued and out, over the
    /// pipeline depth): 2 for a stream, whose read-ahead grows into them; 1 for a batch. Default 2.
    /// </summary>
    public double DemandFactor { get; init; } = 2;

    /// <summary>A lease with nothing to do for this long goes back (zero: at once). Default 1 s.</summary>
    public TimeSpan IdleTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// A background group (a health sweep): while an operation of another kind waits for a permit,
    /// it holds no more leases than its kind's guaranteed share. Leases above the share take no new
    /// work and go back as their answers arrive, so a sweep that keeps its pipelines full cannot
    /// keep borrowed connections from a player that needs them.
    /// </summary>
    public bool YieldToOtherKinds { get; init; }

    /// <summary>
    /// While another group of the same kind waits for a permit, hold no more leases than a fair
    /// share of the primary connections (their count over the groups holding or waiting for
    /// leases): leases above it take no new work and go back as their answers arrive, so a new
    /// playback, seek or header read is not kept waiting by read-ahead another stream will not
    /// need for seconds.
    /// </summary>
    public bool ShareWhenContended { get; init; }

    /// <summary>Fetch the request the reader waits for again on another connection once it is late.</summary>
    public bool RaceStragglers { get; init; }

    /// <summary>Late means out this many median fetch times, or silent this many median first-byte times. Default 3.</summary>
    public double StragglerFactor { get; init; } = 3.0;

    /// <summary>...and (by the first measure) more than this many times the fastest first byte seen. Default 2.</summary>
    public double StragglerLatencyFloorFactor { get; init; } = 2.0;

    /// <summary>...and never sooner than this, so a fast LAN does not race on noise. Default 100 ms.</summary>
    public TimeSpan MinimumStragglerDelay { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>A first guess of the providers' time to first byte before any fetch measured it.</summary>
    public TimeSpan? SeedLatency { get; init; }

    /// <summary>
    /// One article fetched the way a single call expects: every provider tried (each up to the
    /// client's attempts per provider) before giving up, leases returned at once.
    /// </summary>
    public static FetchGroupOptions SingleCall(OperationKind kind) => new()
    {
        Kind = kind,
        ConnectionCap = 1,
        MaxAttempts = null,
        DemandFactor = 1,
        IdleTimeout = TimeSpan.Zero,
    };

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        Require(ConnectionCap >= 1, nameof(ConnectionCap), "must be at least 1");
        Require(MaxInFlight >= 1, nameof(MaxInFlight), "must be at least 1");
        Require(MaxAttempts is null or >= 1, nameof(MaxAttempts), "must be null or at least 1");
        Require(DemandFactor >= 1, nameof(DemandFactor), "must be at least 1");
        Require(IdleTimeout >= TimeSpan.Zero, nameof(IdleTimeout), "must not be negative");
        Require(StragglerFactor >= 1, nameof(StragglerFactor), "must be at least 1");
        Require(StragglerLatencyFloorFactor >= 1, nameof(StragglerLatencyFloorFactor), "must be at least 1");
        Require(MinimumStragglerDelay > TimeSpan.Zero, nameof(MinimumStragglerDelay), "must be positive");
    }

    private static void Require(bool condition, string name, string rule)
    {
        if (!condition)
        {
            throw new ArgumentException($"FetchGroupOptions.{name} {rule}.");
        }
    }
}
