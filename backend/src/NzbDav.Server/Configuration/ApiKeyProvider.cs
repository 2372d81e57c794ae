using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;

namespace NzbDav.Server.Configuration;

/// <summary>
/// The SABnzbd API key in effect: <c>NzbDav:ApiKey</c> as configured, else the one the server
/// generated and stored (<see cref="NzbDavOptions.GeneratedApiKey"/>). Read at every check, so a
/// regenerated key is the only one accepted from the moment it is stored.
/// </summary>
public sealed class ApiKeyProvider(IOptionsMonitor<NzbDavOptions> options)
{
    /// <summary>Null until the store is initialised (a first start); requests before that are refused.</summary>
    public string? ApiKey => Configured ?? (options.CurrentValue.GeneratedApiKey?.Trim() is { Length: > 0 } generated ? generated : null);

    /// <summary>The key the configuration sets (files, environment, command line); the UI cannot replace it.</summary>
    public string? Configured => options.CurrentValue.ApiKey?.Trim() is { Length: > 0 } key ? key : null;

    /// <summary>Constant-time check of <paramref name="given"/> against the key; false when there is none yet.</summary>
    public bool Matches(string? given)
    {
        var expected = ApiKey;
        return !string.IsNullOrEmpty(given) && expected is not null
            && CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(given), Encoding.UTF8.GetBytes(expected));
    }

    /// <summary>A new random key (32 hex digits, as SABnzbd's).</summary>
    internal static string NewKey() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16));
}
