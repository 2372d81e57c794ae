namespace NzbDav.Usenet.Providers;

/// <summary>
/// No provider delivered the article and at least one failed for a reason other than 430 (broken
/// connection, timeout, corrupt yEnc, breaker open): whether the article exists is unknown.
/// </summary>
public sealed class ArticleFetchFailedException(
    string messageId, IReadOnlyList<string> missingOn, IReadOnlyList<ProviderFailure> failures, string? note = null)
    : Exception(Describe(messageId, missingOn, failures, note), failures.LastOrDefault(f => f.Error is not null)?.Error)
{
    public string MessageId { get; } = messageId;

    /// <summary>Providers that answered 430.</summary>
    public IReadOnlyList<string> MissingOn { get; } = missingOn;

    /// <summary>Every other failure, in the order they happened.</summary>
    public IReadOnlyList<ProviderFailure> Failures { get; } = failures;

    private static string Describe(string messageId, IReadOnlyList<string> missingOn, IReadOnlyList<ProviderFailure> failures, string? note)
    {
        var missing = missingOn.Count == 0 ? "" : $"; 430 from {string.Join(", ", missingOn)}";
        return $"Could not fetch article <{messageId}>: {string.Join("; ", failures)}{missing}{(note is null ? "" : $" ({note})")}.";
    }
}
