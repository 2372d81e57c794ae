namespace NzbDav.Usenet.Providers;

/// <summary>One provider as the client sees it now: breaker state and pool counts.</summary>
public sealed record ProviderStatus(
    string Name,
    ProviderRole Role,
    int Priority,
    CircuitState Circuit,
    DateTimeOffset? RetryAt,
    ConnectionPoolStats Pool);
