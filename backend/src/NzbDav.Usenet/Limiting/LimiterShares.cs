namespace NzbDav.Usenet.Limiting;

/// <summary>
/// The user's say in how the connection budget is shared (<c>Usenet:Limiter</c>); the budget itself
/// is always the primary providers' capacity. Anything left null takes the default share for the
/// budget (see <see cref="LimiterOptions.CreateDefault(int)"/>).
/// </summary>
public sealed record LimiterShares
{
    /// <summary>Connections queue ingestion always gets back first.</summary>
    public int? QueueGuarantee { get; init; }

    /// <summary>Connections health checks always get back first.</summary>
    public int? HealthCheckGuarantee { get; init; }

    /// <summary>Most connections queue ingestion may hold by borrowing idle capacity.</summary>
    public int? QueueMaximum { get; init; }

    /// <summary>Most connections health checks may hold by borrowing idle capacity.</summary>
    public int? HealthCheckMaximum { get; init; }

    /// <summary>The limiter options for <paramref name="budget"/> connections with these shares.</summary>
    public LimiterOptions For(int budget)
    {
        var defaults = LimiterOptions.CreateDefault(Math.Max(1, budget));
        return defaults with
        {
            QueueGuarantee = QueueGuarantee ?? defaults.QueueGuarantee,
            HealthCheckGuarantee = HealthCheckGuarantee ?? defaults.HealthCheckGuarantee,
            QueueMaximum = QueueMaximum,
            HealthCheckMaximum = HealthCheckMaximum,
        };
    }
}
