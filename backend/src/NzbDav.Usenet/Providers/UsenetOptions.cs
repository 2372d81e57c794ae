using NzbDav.Usenet.Limiting;

namespace NzbDav.Usenet.Providers;

/// <summary>The provider list and failover policy of a <see cref="UsenetClient"/>.</summary>
public sealed record UsenetOptions
{
    /// <summary>
    /// The accounts, in any order: the client orders them by role, then priority. May be empty (a
    /// fresh install): every fetch then fails saying no provider is configured.
    /// </summary>
    public IReadOnlyList<UsenetProviderOptions> Providers { get; init; } = [];

    /// <summary>How the connection budget (the primaries' capacity) is shared between streaming, queue and health checks.</summary>
    public LimiterShares Limiter { get; init; } = new();

    /// <summary>The limiter options these providers and shares call for.</summary>
    public LimiterOptions LimiterOptions() => Limiter.For(Limiting.LimiterOptions.BudgetOf(Providers.Where(p => p.Enabled)));

    /// <summary>The cap on what all providers together send, and its schedule.</summary>
    public BandwidthOptions Bandwidth { get; init; } = new();

    /// <summary>Tries per provider for one article when connections break or time out.</summary>
    public int MaxAttemptsPerProvider { get; init; } = 2;

    /// <summary>Consecutive connection-level failures that make the client skip a provider.</summary>
    public int BreakerFailureThreshold { get; init; } = 5;

    /// <summary>How long a tripped provider is skipped before one trial request is let through.</summary>
    public TimeSpan BreakerCooldown { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// A reader that has waited this many milliseconds on one article may have it fetched from a
    /// block account too; null (the default): block accounts serve only articles every other
    /// provider answered 430 for.
    /// </summary>
    public int? BlockAccountAfterMs { get; init; }

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var provider in Providers)
        {
            ProviderValidation.Validate(provider);
            if (!names.Add(provider.Name))
            {
                throw new ArgumentException($"Provider name '{provider.Name}' is used twice; names must be unique.");
            }
        }

        if (MaxAttemptsPerProvider < 1)
        {
            throw new ArgumentException($"{nameof(MaxAttemptsPerProvider)} is {MaxAttemptsPerProvider}; it must be at least 1.");
        }

        if (BreakerFailureThreshold < 1)
        {
            throw new ArgumentException($"{nameof(BreakerFailureThreshold)} is {BreakerFailureThreshold}; it must be at least 1.");
        }

        if (BreakerCooldown <= TimeSpan.Zero)
        {
            throw new ArgumentException($"{nameof(BreakerCooldown)} must be positive.");
        }

        if (BlockAccountAfterMs is < 100 or > 600_000)
        {
            throw new ArgumentException($"Usenet:{nameof(BlockAccountAfterMs)} is {BlockAccountAfterMs}; it must be empty (block accounts only for articles missing everywhere else) or between 100 and 600,000 ms.");
        }

        ArgumentNullException.ThrowIfNull(Bandwidth, nameof(Bandwidth));
        Bandwidth.Parse();

        ArgumentNullException.ThrowIfNull(Limiter, nameof(Limiter));
        try
        {
            LimiterOptions().Validate();
        }
        catch (ArgumentException error)
        {
            throw new ArgumentException($"Usenet:Limiter: {error.Message}", error);
        }
    }
}
