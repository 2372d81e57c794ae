namespace NzbDav.Usenet.Providers;

/// <summary>A provider with its pool and breaker, and its place in the client's try order.</summary>
internal sealed class ProviderEndpoint(int order, UsenetProviderOptions options, ProviderConnectionPool pool, CircuitBreaker breaker)
{
    /// <summary>Position in the try order: primaries by priority, then backup-only ones by priority.</summary>
    public int Order { get; } = order;

    public UsenetProviderOptions Options { get; } = options;

    public ProviderConnectionPool Pool { get; } = pool;

    public CircuitBreaker Breaker { get; } = breaker;

    public string Name => Options.Name;

    public bool IsPrimary => Options.Role == ProviderRole.Primary;
}
