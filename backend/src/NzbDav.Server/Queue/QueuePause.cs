using Microsoft.EntityFrameworkCore;
using NzbDav.Data;

namespace NzbDav.Server.Queue;

/// <summary>
/// SABnzbd's global pause (<c>mode=pause</c>/<c>mode=resume</c>): while set no job starts ingesting
/// (one already running finishes; it takes seconds). Saved in the store, so it survives a restart.
/// </summary>
public sealed class QueuePause(IDbContextFactory<NzbDavDbContext> contextFactory, QueueSignal signal, ILogger<QueuePause> logger)
{
    internal const string ConfigKey = "queue.paused";

    private volatile bool _paused;

    public bool IsPaused => _paused;

    /// <summary>Reads the saved state; called once at startup, before the API and the queue run.</summary>
    public async Task LoadAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var stored = await context.ConfigItems.Where(c => c.Key == ConfigKey).Select(c => c.Value).FirstOrDefaultAsync(cancellationToken);
        _paused = stored == "true";
        if (_paused)
            logger.LogWarning("The queue is paused (SABnzbd mode=pause); new jobs wait until mode=resume");
    }

    public async Task SetAsync(bool paused, CancellationToken cancellationToken)
    {
        var value = paused ? "true" : "false";
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            // One statement, so two API calls at once cannot both try to insert the row.
            await context.Database.ExecuteSqlAsync(
                $"INSERT INTO \"ConfigItems\" (\"Key\", \"Value\") VALUES ({ConfigKey}, {value}) ON CONFLICT (\"Key\") DO UPDATE SET \"Value\" = excluded.\"Value\"",
                cancellationToken);
        }

        _paused = paused;
        if (!paused)
            signal.Notify();
        logger.LogInformation("Queue {State} through the SABnzbd API", paused ? "paused" : "resumed");
    }
}
