namespace NzbDav.Usenet.Providers;

/// <summary>
/// The providers in force, in try order (primaries by priority, then backup-only ones by
/// priority, then block accounts by priority), with what the fetch engine asks of them often. Immutable: a reconfiguration builds a
/// new set and swaps it in, so readers never lock.
/// </summary>
internal sealed class ProviderSet
{
    public static readonly ProviderSet Empty = new([]);

    public ProviderSet(IEnumerable<ProviderEndpoint> endpoints)
    {
        Endpoints = [.. endpoints.OrderBy(e => e.IsPrimary ? 0 : e.IsBlock ? 2 : 1).ThenBy(e => e.Options.Priority)];
        Names = [.. Endpoints.Select(e => e.Name)];
        // Block accounts and nothing else: they are all there is, so they serve as regular providers.
        var blockOnly = Endpoints.All(e => e.IsBlock);
        RegularNames = [.. Endpoints.Where(e => !e.IsBlock || blockOnly).Select(e => e.Name)];
        BlockNames = [.. Endpoints.Where(e => e.IsBlock && !blockOnly).Select(e => e.Name)];
        var primaries = Endpoints.Where(e => e.IsPrimary).Sum(e => e.Options.MaxConnections);
        var regular = Endpoints.Where(e => !e.IsBlock).Sum(e => e.Options.MaxConnections);
        PrimaryCapacity = primaries > 0 ? primaries : regular > 0 ? regular : Endpoints.Sum(e => e.Options.MaxConnections);
    }

    public ProviderEndpoint[] Endpoints { get; }

    public string[] Names { get; }

    /// <summary>Every provider but the block accounts, in try order (the block accounts when there is nothing else).</summary>
    public string[] RegularNames { get; }

    /// <summary>The block accounts, in try order, kept for what the others cannot serve (none when they are all there is).</summary>
    public string[] BlockNames { get; }

    /// <summary>The most sessions all primaries together allow (the backups' when there is no primary, the block accounts' when there is nothing else).</summary>
    public int PrimaryCapacity { get; }

    public ProviderEndpoint? Find(string name) =>
        Array.Find(Endpoints, e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase));
}
