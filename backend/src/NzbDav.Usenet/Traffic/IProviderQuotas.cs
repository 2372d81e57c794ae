namespace NzbDav.Usenet.Traffic;

/// <summary>
/// Byte allowances of providers, as the client checks them: before a session is leased on a
/// provider and before each article is sent on one already leased, so a provider at its quota
/// sends at most the articles already asked of it.
/// </summary>
public interface IProviderQuotas
{
    /// <summary>Why <paramref name="provider"/> takes no more work now ("daily quota of 1 GB reached; resets …"), or null while it may.</summary>
    string? Exhausted(string provider);

    /// <summary>Bytes <paramref name="provider"/> may still send before its nearest allowance is reached (<see cref="long.MaxValue"/> without one).</summary>
    long Headroom(string provider) => long.MaxValue;
}
