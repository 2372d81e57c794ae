namespace NzbDav.Usenet.Providers;

/// <summary>No provider could lend a connection: all are cooling off after failures, or all failed to connect.</summary>
public sealed class NoProviderAvailableException(IReadOnlyList<ProviderFailure> failures)
    : Exception($"No Usenet provider is available: {string.Join("; ", failures)}.", failures.LastOrDefault(f => f.Error is not null)?.Error)
{
    public IReadOnlyList<ProviderFailure> Failures { get; } = failures;
}
