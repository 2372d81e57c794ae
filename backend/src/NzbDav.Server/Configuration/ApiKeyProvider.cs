namespace NzbDav.Server.Configuration;

/// <summary>The API key in effect, set once at startup by <see cref="StoreInitializer"/>.</summary>
public sealed class ApiKeyProvider
{
    private string? _apiKey;

    /// <summary>Null until the store is initialised; requests before that are refused.</summary>
    public string? ApiKey => Volatile.Read(ref _apiKey);

    internal void Set(string apiKey) => Volatile.Write(ref _apiKey, apiKey);
}
