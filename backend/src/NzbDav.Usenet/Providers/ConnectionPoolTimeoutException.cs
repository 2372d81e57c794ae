using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// No session of a provider could be had in time: every allowed session stayed busy, or the provider
/// itself kept refusing new connections as full (<see cref="ProviderRefused"/>; typically another
/// client using the same account holds its connections). Not a fault of the provider.
/// </summary>
public sealed class ConnectionPoolTimeoutException : Exception
{
    /// <summary>Every one of the pool's own sessions stayed busy for <paramref name="waited"/>.</summary>
    public ConnectionPoolTimeoutException(string providerName, int maxConnections, TimeSpan waited)
        : base($"No connection to provider '{providerName}' became free within {waited.TotalSeconds:0.#} s: all {maxConnections} allowed " +
            $"connections stayed busy. Raise MaxConnections of provider '{providerName}' if the account allows more, " +
            "or lower the number of concurrent operations.")
    {
        ProviderName = providerName;
        MaxConnections = maxConnections;
    }

    /// <summary>The provider answered every connect attempt of the last <paramref name="waited"/> with 400/502.</summary>
    public ConnectionPoolTimeoutException(string providerName, int maxConnections, TimeSpan waited, NntpServiceUnavailableException refusal)
        : base($"Provider '{providerName}' refused new connections as full{(waited > TimeSpan.Zero ? $" for {waited.TotalSeconds:0.#} s" : "")} " +
            $"({refusal.Message}). Another client using the same account may hold its connections: " +
            $"stop it, or lower MaxConnections of provider '{providerName}' (now {maxConnections}) so both fit.", refusal)
    {
        ProviderName = providerName;
        MaxConnections = maxConnections;
    }

    public string ProviderName { get; }

    public int MaxConnections { get; }

    /// <summary>True when the provider refused connections, rather than the pool's own sessions all being busy.</summary>
    public bool ProviderRefused => InnerException is NntpServiceUnavailableException;
}
