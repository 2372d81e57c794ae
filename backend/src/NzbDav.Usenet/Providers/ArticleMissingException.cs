namespace NzbDav.Usenet.Providers;

/// <summary>Every provider that was asked answered 430: the article is gone, not merely unreachable.</summary>
public sealed class ArticleMissingException(string messageId, IReadOnlyList<string> providersTried)
    : Exception($"Article <{messageId}> is missing on all providers (430 from {string.Join(", ", providersTried)}).")
{
    public string MessageId { get; } = messageId;

    public IReadOnlyList<string> ProvidersTried { get; } = providersTried;
}
