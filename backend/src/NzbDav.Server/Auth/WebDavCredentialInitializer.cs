using System.Security.Cryptography;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Server.Configuration;
using NzbDav.Server.WebDav;

namespace NzbDav.Server.Auth;

/// <summary>
/// Resolves the WebDAV password at startup (after the store is migrated): the configured one, else
/// the stored hash, else a generated password that is logged once and stored only as a PBKDF2 hash.
/// </summary>
public sealed class WebDavCredentialInitializer(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<WebDavOptions> options,
    WebDavCredentials credentials,
    ILogger<WebDavCredentialInitializer> logger) : IHostedService
{
    internal const string PasswordHashConfigKey = "webdav.password";

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = options.CurrentValue;
        var user = string.IsNullOrWhiteSpace(settings.User) ? "admin" : settings.User.Trim();
        if (!string.IsNullOrEmpty(settings.Password))
        {
            // A configured password lives in the configuration already; only its hash is kept in memory.
            credentials.Set(user, PasswordHash.Create(settings.Password));
            return;
        }

        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var stored = await context.ConfigItems.FirstOrDefaultAsync(c => c.Key == PasswordHashConfigKey, cancellationToken);
        if (stored is not null && PasswordHash.Parse(stored.Value) is { } hash)
        {
            credentials.Set(user, hash);
            return;
        }

        var generated = Convert.ToBase64String(RandomNumberGenerator.GetBytes(18)).Replace('+', '-').Replace('/', '_');
        var created = PasswordHash.Create(generated);
        await StoredConfigItems.SetAsync(context, PasswordHashConfigKey, created.ToString(), cancellationToken);
        credentials.Set(user, created);
        logger.LogWarning("Generated the WebDAV password for user {User}: {Password} (stored hashed; it is not shown again)", user, generated);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
