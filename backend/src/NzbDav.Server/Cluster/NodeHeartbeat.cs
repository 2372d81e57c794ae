using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Cluster;

/// <summary>
/// Registers this node in the library's <c>Nodes</c> table before the queue starts, writes its
/// heartbeat every <see cref="ClusterOptions.HeartbeatInterval"/>, and at each beat hands the jobs of
/// nodes that stopped beating back to the queue (<see cref="JobClaims.ReclaimAsync"/>). A node that
/// stops in order deletes its row, so its jobs are taken up at once rather than after the timeout.
/// On SQLite, which one node serves, only the start's registration and reclaim run.
/// </summary>
public sealed class NodeHeartbeat(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    ClusterNode node,
    JobClaims claims,
    IOptionsMonitor<ClusterOptions> options,
    StoreHealth health,
    LibraryStore store,
    ClusterView view,
    WebDav.ActiveStreams streams,
    NzbDav.Streaming.StreamingMetrics streaming,
    IHostApplicationLifetime lifetime,
    TimeProvider time,
    ILogger<NodeHeartbeat> logger) : BackgroundService
{
    private string? _newestKnown;

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow().UtcDateTime;
        await using (var context = await contextFactory.CreateDbContextAsync(cancellationToken))
        {
            context.Nodes.Add(new NodeRecord { Id = node.Id, Name = node.Name, Version = node.Version, StartedAt = now, HeartbeatAt = now });
            await context.SaveChangesAsync(cancellationToken);
        }

        health.Reachable();
        logger.LogInformation("Node {NodeName} ({NodeId}) joined the library", node.Name, node.Id);
        // Jobs a killed node (this machine's last run, or another) left half-ingested go back to the queue before it starts.
        await claims.ReclaimAsync(cancellationToken);
        await base.StartAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        // SQLite is one node's: nobody reads its heartbeat or takes its jobs, and a write every second
        // would only keep the disk awake. The start registered it and took back what a crash left.
        if (store.Provider == StoreProvider.Sqlite)
            return;
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await Task.Delay(options.CurrentValue.HeartbeatInterval, time, stoppingToken);
                await BeatAsync(stoppingToken);
                if (!health.Current.Ready)
                    logger.LogWarning("Node {NodeName} reaches the library store ({Store}) again", node.Name, store.Description);
                health.Reachable();
                await claims.ReclaimAsync(stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is System.Data.Common.DbException or DbUpdateException or InvalidOperationException or TimeoutException)
            {
                var first = health.Current.Ready;
                health.Unreachable(ex.Message);
                // Said once when it starts, not at every beat; /health and /ready say it meanwhile.
                if (first)
                    logger.LogError("Node {NodeName} cannot reach the library store ({Store}): {Reason}; streams already open go on, new requests get 503 until it is back", node.Name, store.Description, ex.Message);
            }
        }
    }

    private async Task BeatAsync(CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow().UtcDateTime;
        var (streamCount, cacheBytes, cacheCapacity) = LocalFigures();
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var updated = await context.Nodes.Where(n => n.Id == node.Id).ExecuteUpdateAsync(s => s
            .SetProperty(n => n.HeartbeatAt, now)
            .SetProperty(n => n.Streams, streamCount)
            .SetProperty(n => n.CacheBytes, cacheBytes)
            .SetProperty(n => n.CacheCapacity, cacheCapacity), cancellationToken);
        // A newer NzbDav started on the library and migrated it: this node's model no longer describes
        // the schema, so it stops rather than write to it (a start refuses such a library too).
        _newestKnown ??= context.Database.GetMigrations().Max(StringComparer.Ordinal);
        var newest = await context.Database.SqlQueryRaw<string>("SELECT MAX(\"MigrationId\") AS \"Value\" FROM \"__EFMigrationsHistory\"").SingleAsync(cancellationToken);
        if (string.CompareOrdinal(newest, _newestKnown) > 0)
        {
            logger.LogCritical(
                "Node {NodeName} stops: a newer NzbDav migrated the library to {Migration}, which this version does not know (it knows up to {Known}); run the newer version on this node too",
                node.Name, newest, _newestKnown);
            lifetime.StopApplication();
            return;
        }

        if (updated == 0)
        {
            // Taken for gone (a pause longer than the timeout) and removed by another node: back in,
            // with the same id; the jobs it held were handed on and it no longer completes them.
            context.Nodes.Add(new NodeRecord { Id = node.Id, Name = node.Name, Version = node.Version, StartedAt = now, HeartbeatAt = now, Streams = streamCount, CacheBytes = cacheBytes, CacheCapacity = cacheCapacity });
            await context.SaveChangesAsync(cancellationToken);
            logger.LogWarning("Node {NodeName} had been taken for gone (no heartbeat for {Timeout}); it rejoined", node.Name, options.CurrentValue.NodeTimeout);
        }

        await ReadClusterAsync(context, now, cancellationToken);
    }

    /// <summary>Streams served now and the segment cache (memory and disk): bytes held, capacity.</summary>
    private (int Streams, long CacheBytes, long CacheCapacity) LocalFigures()
    {
        var memory = streaming.Cache;
        var disk = streaming.DiskStore;
        return (streams.Current.Count, (memory?.Bytes ?? 0) + (disk?.Bytes ?? 0), (memory?.Capacity ?? 0) + (disk?.MaxBytes ?? 0));
    }

    /// <summary>Every node and its leases, for the dashboard (one query each, at the beat the node writes anyway).</summary>
    private async Task ReadClusterAsync(NzbDavDbContext context, DateTime now, CancellationToken cancellationToken)
    {
        var nodes = await context.Nodes.AsNoTracking().ToListAsync(cancellationToken);
        var leases = (await context.ProviderLeases.AsNoTracking().ToListAsync(cancellationToken)).ToLookup(l => l.NodeId);
        view.Set([.. nodes
            .OrderByDescending(n => n.Id == node.Id).ThenBy(n => n.Name, StringComparer.OrdinalIgnoreCase).ThenBy(n => n.Id)
            .Select(n => new NodeView(n.Id, n.Name, n.Version, n.Id == node.Id, DateTime.SpecifyKind(n.StartedAt, DateTimeKind.Utc),
                Math.Max(0, Math.Round((now - n.HeartbeatAt).TotalSeconds, 1)), n.Streams, n.CacheBytes, n.CacheCapacity,
                [.. leases[n.Id].OrderBy(l => l.Provider, StringComparer.OrdinalIgnoreCase)
                    .Select(l => new NodeLeaseView(l.Provider, l.Granted, l.Open, l.StreamingDemand, l.QueueDemand, l.HealthDemand))]))]);
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        try
        {
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            await context.Nodes.Where(n => n.Id == node.Id).ExecuteDeleteAsync(cancellationToken);
            logger.LogInformation("Node {NodeName} left the library", node.Name);
        }
        catch (Exception ex) when (ex is System.Data.Common.DbException or InvalidOperationException or OperationCanceledException)
        {
            // The others find it gone at the timeout instead.
            logger.LogWarning("Node {NodeName} could not remove itself from the library: {Reason}", node.Name, ex.Message);
        }
    }
}
