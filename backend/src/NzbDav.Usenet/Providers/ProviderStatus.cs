namespace NzbDav.Usenet.Providers;

/// <summary>One provider as the client sees it now: breaker state, failure streak and pool counts.</summary>
public sealed record ProviderStatus(
    string Name,
    ProviderRole Role,
    int Priority,
    CircuitState Circuit,
    DateTimeOffset? RetryAt,
    ConnectionPoolStats Pool)
{
    /// <summary>The breaker's failure streak and last error; default for a provider never used.</summary>
    public BreakerSnapshot Breaker { get; init; }
}
