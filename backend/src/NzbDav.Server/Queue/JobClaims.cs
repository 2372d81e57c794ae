using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Cluster;

namespace NzbDav.Server.Queue;

/// <summary>
/// Which node ingests which job. A job is claimed by setting it Processing with this node's id in
/// one statement, so exactly one node (and one worker) gets it; on PostgreSQL the next job is picked
/// with <c>FOR UPDATE SKIP LOCKED</c>, so nodes claiming at once take different jobs without waiting
/// on each other. Jobs claimed by a node that is gone go back to the queue.
/// </summary>
public sealed class JobClaims(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    ClusterNode node,
    IOptionsMonitor<ClusterOptions> options,
    TimeProvider time,
    QueueSignal signal,
    ILogger<JobClaims> logger,
    HealthWake? healthWake = null,
    ClusterOutbox? outbox = null)
{
    /// <summary>The queued job of highest priority, oldest first, now Processing and this node's; null when none is queued.</summary>
    public async Task<Job?> ClaimNextAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (!context.Database.IsSqlite())
        {
            var queued = (int)JobStatus.Queued;
            var processing = (int)JobStatus.Processing;
            var claimed = await context.Jobs.FromSql($"""
                UPDATE "Jobs" SET "Status" = {processing}, "ClaimedBy" = {node.Id}
                WHERE "Id" = (SELECT "Id" FROM "Jobs" WHERE "Status" = {queued}
                              ORDER BY "Priority" DESC, "AddedAt" LIMIT 1
                              FOR UPDATE SKIP LOCKED)
                RETURNING *
                """).AsNoTracking().ToListAsync(cancellationToken);
            return claimed.SingleOrDefault();
        }

        while (true)
        {
            var next = await context.Jobs.AsNoTracking()
                .Where(j => j.Status == JobStatus.Queued)
                .OrderByDescending(j => j.Priority).ThenBy(j => j.AddedAt)
                .FirstOrDefaultAsync(cancellationToken);
            if (next is null)
                return null;
            // The status check makes the claim atomic between workers and against pause/delete.
            var claimed = await context.Jobs.Where(j => j.Id == next.Id && j.Status == JobStatus.Queued)
                .ExecuteUpdateAsync(s => s.SetProperty(j => j.Status, JobStatus.Processing).SetProperty(j => j.ClaimedBy, node.Id), cancellationToken);
            if (claimed == 1)
            {
                next.Status = JobStatus.Processing;
                next.ClaimedBy = node.Id;
                return next;
            }
        }
    }

    /// <summary>
    /// Removes the nodes whose heartbeat is older than <see cref="ClusterOptions.NodeTimeout"/> and puts
    /// the jobs that no live node holds back in the queue. On SQLite, which one process serves, every
    /// other node is gone; answers how many jobs went back.
    /// </summary>
    public async Task<int> ReclaimAsync(CancellationToken cancellationToken)
    {
        var cutoff = time.GetUtcNow().UtcDateTime - options.CurrentValue.NodeTimeout;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var self = node.Id;
        var gone = context.Database.IsSqlite()
            ? await context.Nodes.Where(n => n.Id != self).ExecuteDeleteAsync(cancellationToken)
            : await context.Nodes.Where(n => n.HeartbeatAt < cutoff && n.Id != self).ExecuteDeleteAsync(cancellationToken);
        var alive = context.Nodes.Select(n => n.Id);
        var reclaimed = await context.Jobs
            .Where(j => j.Status == JobStatus.Processing && (j.ClaimedBy == null || !alive.Contains(j.ClaimedBy.Value)))
            .ExecuteUpdateAsync(s => s.SetProperty(j => j.Status, JobStatus.Queued).SetProperty(j => j.ClaimedBy, (Guid?)null), cancellationToken);
        if (gone > 0)
            logger.LogWarning("{Nodes} node(s) stopped writing their heartbeat for {Timeout} and were removed", gone, options.CurrentValue.NodeTimeout);
        // Files a gone node took for a health check and never checked: due again now, for the others.
        var now = time.GetUtcNow().UtcDateTime;
        var unclaimed = await context.FileHealth
            .Where(h => h.CheckClaimedBy != null && !alive.Contains(h.CheckClaimedBy.Value))
            .ExecuteUpdateAsync(s => s.SetProperty(h => h.CheckClaimedBy, (Guid?)null).SetProperty(h => h.NextCheckAt, now), cancellationToken);
        if (unclaimed > 0)
        {
            logger.LogInformation("{Count} file(s) a gone node was checking are due again", unclaimed);
            healthWake?.Request();
            outbox?.Publish(Health.HealthCheckService.HealthTopic);
        }
        if (reclaimed > 0)
        {
            logger.LogInformation("Resuming {Count} job(s) interrupted during ingestion", reclaimed);
            signal.Notify();
        }

        return reclaimed;
    }
}
