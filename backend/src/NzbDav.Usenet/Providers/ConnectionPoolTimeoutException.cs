namespace NzbDav.Usenet.Providers;

/// <summary>No session of a provider became free in time: every allowed session stayed busy.</summary>
public sealed class ConnectionPoolTimeoutException(string providerName, int maxConnections, TimeSpan waited)
    : Exception($"No connection to provider '{providerName}' became free within {waited.TotalSeconds:0.#} s: all {maxConnections} allowed " +
        $"connections stayed busy. Raise MaxConnections of provider '{providerName}' if the account allows more, " +
        "or lower the number of concurrent operations.")
{
    public string ProviderName { get; } = providerName;

    public int MaxConnections { get; } = maxConnections;
}
