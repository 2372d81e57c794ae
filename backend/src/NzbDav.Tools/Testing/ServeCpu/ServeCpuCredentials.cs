using System.Security.Cryptography;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>The WebDAV/UI account and SABnzbd API key a run gives its server: random, so nothing is guessable while it runs.</summary>
internal sealed record ServeCpuCredentials(string User, string Password, string ApiKey)
{
    public static ServeCpuCredentials New() =>
        new("bench", Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(12)), Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16)));
}
