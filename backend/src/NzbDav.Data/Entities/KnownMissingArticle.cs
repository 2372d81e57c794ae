namespace NzbDav.Data.Entities;

/// <summary>
/// A message-id confirmed missing on every provider in a file found Broken. Enough of them are kept
/// per release that a re-grab of the same release is recognised at import and fails at once.
/// </summary>
public sealed class KnownMissingArticle
{
    public required string MessageId { get; set; }

    /// <summary>UTC when it was confirmed missing.</summary>
    public DateTime FoundAt { get; set; }

    /// <summary>The release it belonged to, for the failure message.</summary>
    public required string JobName { get; set; }
}
