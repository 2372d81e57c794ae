namespace NzbDav.Usenet.Providers;

/// <summary>Whether the client currently sends work to a provider.</summary>
public enum CircuitState
{
    /// <summary>Healthy: used normally.</summary>
    Closed,

    /// <summary>Failed repeatedly: skipped until the cooling-off period ends.</summary>
    Open,

    /// <summary>Cooling-off over: one trial request is in flight; its result decides.</summary>
    HalfOpen,
}
