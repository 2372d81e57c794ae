namespace NzbDav.Usenet.Metrics;

/// <summary>How one BODY answer from a provider ended, as counted by <see cref="ProviderMetrics"/>.</summary>
public enum ArticleOutcome
{
    /// <summary>Decoded to its end with a matching size and CRC.</summary>
    Ok = 0,

    /// <summary>430/423: the provider does not have it.</summary>
    Missing = 1,

    /// <summary>The decoded bytes' CRC-32 differs from the trailer's.</summary>
    CrcMismatch = 2,

    /// <summary>Anything else: malformed yEnc, a size mismatch, an unexpected status, the session breaking mid-answer.</summary>
    Error = 3,
}
