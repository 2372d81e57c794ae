namespace NzbDav.Usenet.Providers;

/// <summary>Why one provider did not deliver during a multi-provider operation.</summary>
/// <param name="ProviderName">The provider.</param>
/// <param name="Reason">Human-readable reason.</param>
/// <param name="Error">The exception behind it, if any.</param>
public sealed record ProviderFailure(string ProviderName, string Reason, Exception? Error = null)
{
    public override string ToString() => $"{ProviderName}: {Reason}";
}
