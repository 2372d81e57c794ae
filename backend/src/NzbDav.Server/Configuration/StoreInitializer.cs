using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Configuration;

/// <summary>
/// Runs before the queue and the web server: applies migrations, loads the queue's pause state, then resolves the API key
/// (configured, else persisted, else generated, persisted and logged once).
/// </summary>
public sealed class StoreInitializer(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<NzbDavOptions> options,
    ApiKeyProvider apiKeys,
    QueuePause pause,
    ILogger<StoreInitializer> logger,
    StoredSettingsSource? storedSettings = null) : IHostedService
{
    internal const string ApiKeyConfigKey = "api.key";

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        if (await NzbDavDatabase.MigrateAsync(contextFactory, cancellationToken))
            logger.LogWarning("Cleared the database migration lock a start that was killed left behind");
        await pause.LoadAsync(cancellationToken);
        // The layer was read before the store existed (a first start, an older schema): read it now.
        storedSettings?.Provider.Reload();
        var configured = options.CurrentValue.ApiKey;
        if (!string.IsNullOrWhiteSpace(configured))
        {
            apiKeys.Set(configured.Trim());
            return;
        }

        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var stored = await context.ConfigItems.FirstOrDefaultAsync(c => c.Key == ApiKeyConfigKey, cancellationToken);
        if (stored is not null)
        {
            apiKeys.Set(stored.Value);
            return;
        }

        var generated = ApiKeyProvider.NewKey();
        await StoredConfigItems.SetAsync(context, ApiKeyConfigKey, generated, cancellationToken);
        apiKeys.Set(generated);
        logger.LogWarning("Generated the SABnzbd API key {ApiKey}; enter it in Sonarr/Radarr (it is stored and not shown again)", generated);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
