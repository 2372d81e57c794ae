namespace NzbDav.Usenet.Providers;

/// <summary>The provider was removed, disabled or re-pointed while the caller asked its pool for a session: ask another.</summary>
public sealed class ProviderRetiredException(string providerName)
    : Exception($"Provider '{providerName}' was removed or reconfigured; its sessions are closing.")
{
    public string ProviderName { get; } = providerName;
}
