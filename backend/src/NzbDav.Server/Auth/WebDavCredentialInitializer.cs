using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Auth;

/// <summary>
/// At start (after the store is migrated): when neither a password nor its hash is configured or
/// stored, generates a password, logs it once and stores only its PBKDF2 hash
/// (<see cref="StoredSecretsSource.WebDavPasswordHash"/>), which every check then reads.
/// </summary>
public sealed class WebDavCredentialInitializer(
    IOptionsMonitor<WebDavOptions> options,
    StoredSecrets secrets,
    ILogger<WebDavCredentialInitializer> logger) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = options.CurrentValue;
        if (!string.IsNullOrEmpty(settings.Password) || PasswordHash.Parse(settings.PasswordHash ?? "") is not null)
            return;

        var generated = Convert.ToBase64String(RandomNumberGenerator.GetBytes(18)).Replace('+', '-').Replace('/', '_');
        await secrets.SetAsync(new Dictionary<string, string> { [StoredSecretsSource.WebDavPasswordHash] = PasswordHash.Create(generated).ToString() }, cancellationToken);
        var user = string.IsNullOrWhiteSpace(settings.User) ? "admin" : settings.User.Trim();
        logger.LogWarning("Generated the WebDAV password for user {User}: {Password} (stored hashed; it is not shown again)", user, generated);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
