namespace NzbDav.Usenet.Providers;

/// <summary>A consistent snapshot of one provider's connection pool.</summary>
/// <param name="ProviderName">The provider.</param>
/// <param name="MaxConnections">The cap the pool enforces.</param>
/// <param name="Open">Sessions open or being opened (what the provider counts against the cap).</param>
/// <param name="Idle">Open sessions waiting to be lent.</param>
/// <param name="InUse">Sessions lent out.</param>
/// <param name="Waiters">Callers waiting for a session.</param>
/// <param name="PeakOpen">The most sessions ever open at once.</param>
/// <param name="Closing">Sessions being closed: still counted in <paramref name="Open"/> until the provider has let go of them.</param>
public readonly record struct ConnectionPoolStats(
    string ProviderName,
    int MaxConnections,
    int Open,
    int Idle,
    int InUse,
    int Waiters,
    int PeakOpen,
    int Closing = 0)
{
    /// <summary>Slots reserved for sessions that are still connecting.</summary>
    public int Connecting => Open - Idle - InUse - Closing;
}
