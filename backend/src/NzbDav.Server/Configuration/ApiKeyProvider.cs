using System.Security.Cryptography;
using System.Text;

namespace NzbDav.Server.Configuration;

/// <summary>The API key in effect, set once at startup by <see cref="StoreInitializer"/>.</summary>
public sealed class ApiKeyProvider
{
    private string? _apiKey;

    /// <summary>Null until the store is initialised; requests before that are refused.</summary>
    public string? ApiKey => Volatile.Read(ref _apiKey);

    /// <summary>Constant-time check of <paramref name="given"/> against the key; false before the store is initialised.</summary>
    public bool Matches(string? given)
    {
        var expected = ApiKey;
        return !string.IsNullOrEmpty(given) && expected is not null
            && CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(given), Encoding.UTF8.GetBytes(expected));
    }

    internal void Set(string apiKey) => Volatile.Write(ref _apiKey, apiKey);

    /// <summary>A new random key (32 hex digits, as SABnzbd's).</summary>
    internal static string NewKey() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16));
}
