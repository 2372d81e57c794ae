using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Configuration;

/// <summary>
/// Runs before the queue and the web server: applies migrations, loads the queue's pause state, then resolves the API key
/// (configured, else persisted, else generated, persisted and logged once).
/// </summary>
public sealed class StoreInitializer(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    ApiKeyProvider apiKeys,
    QueuePause pause,
    ILogger<StoreInitializer> logger,
    StoredSecrets secrets,
    LibraryStore store,
    StoredSettingsSource? storedSettings = null) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        try
        {
            if (await NzbDavDatabase.MigrateAsync(contextFactory, cancellationToken))
                logger.LogWarning("Cleared the database migration lock a start that was killed left behind");
        }
        catch (System.Data.Common.DbException ex)
        {
            // A wrong password, host or database name: said with where, never with the connection string.
            throw new InvalidOperationException($"the library store ({store.Description}) could not be opened: {ex.Message}", ex);
        }

        logger.LogInformation("Library store: {Store}", store.Description);
        await pause.LoadAsync(cancellationToken);
        // The layers were read before the store existed (a first start, an older schema): read them now.
        storedSettings?.Provider.Reload();
        secrets.Reload();
        if (apiKeys.ApiKey is not null)
            return;

        var generated = ApiKeyProvider.NewKey();
        await secrets.SetAsync(new Dictionary<string, string> { [StoredSecretsSource.ApiKey] = generated }, cancellationToken);
        // Not "shown once": Settings → Integrations shows it whenever needed (and the demo line prints it).
        logger.LogWarning("Generated the SABnzbd API key {ApiKey} and stored it; enter it in Sonarr/Radarr (the web UI shows it again under Settings → Integrations)", generated);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
