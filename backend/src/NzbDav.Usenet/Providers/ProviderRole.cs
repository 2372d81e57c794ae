namespace NzbDav.Usenet.Providers;

/// <summary>Whether a provider is asked in priority order, or only after every primary has failed.</summary>
public enum ProviderRole
{
    Primary,
    BackupOnly,
}
