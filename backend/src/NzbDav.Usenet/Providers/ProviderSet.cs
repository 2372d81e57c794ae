namespace NzbDav.Usenet.Providers;

/// <summary>
/// The providers in force, in try order (primaries by priority, then backup-only ones by
/// priority), with what the fetch engine asks of them often. Immutable: a reconfiguration builds a
/// new set and swaps it in, so readers never lock.
/// </summary>
internal sealed class ProviderSet
{
    public static readonly ProviderSet Empty = new([]);

    public ProviderSet(IEnumerable<ProviderEndpoint> endpoints)
    {
        Endpoints = [.. endpoints.OrderBy(e => e.IsPrimary ? 0 : 1).ThenBy(e => e.Options.Priority)];
        Names = [.. Endpoints.Select(e => e.Name)];
        var primaries = Endpoints.Where(e => e.IsPrimary).Sum(e => e.Options.MaxConnections);
        PrimaryCapacity = primaries > 0 ? primaries : Endpoints.Sum(e => e.Options.MaxConnections);
    }

    public ProviderEndpoint[] Endpoints { get; }

    public string[] Names { get; }

    /// <summary>The most sessions all primaries together allow (all providers' when there is no primary).</summary>
    public int PrimaryCapacity { get; }

    public ProviderEndpoint? Find(string name) =>
        Array.Find(Endpoints, e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase));
}
