using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Health.Par2;

/// <summary>
/// Runs the queued PAR2 repairs one after another, in the background: a health check or a click on
/// "Repair with PAR2" only queues one. At start it queues again every release whose files were left
/// <c>Repairing</c> by a server that stopped mid-repair (nothing of that repair was stored: its patch
/// is written and indexed only once whole), after the patch index has loaded and swept leftovers.
/// </summary>
public sealed class Par2RepairWorker(
    Par2Repairs queue,
    Cluster.ClusterLocks locks,
    HealthRepairer repairer,
    SegmentPatchStore patches,
    IDbContextFactory<NzbDavDbContext> contextFactory,
    HealthAudit audit,
    Microsoft.Extensions.Options.IOptionsMonitor<NzbDav.Server.Configuration.NzbDavOptions> nzbdav,
    ILogger<Par2RepairWorker> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await patches.Loaded.WaitAsync(stoppingToken);
            DeleteScratch();
            await ResumeAsync(stoppingToken);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            return;
        }
        catch (Exception ex)
        {
            logger.LogError(ex, "The PAR2 repairs interrupted by the last stop could not be read; they are not resumed");
        }

        try
        {
            await foreach (var ticket in queue.ReadAllAsync(stoppingToken))
                await RunAsync(ticket, stoppingToken);
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Stopping: a repair cut short stays Repairing and starts again with the server.
        }
    }

    private async Task RunAsync(Par2RepairTicket ticket, CancellationToken stoppingToken)
    {
        // One rebuild of a release in the whole cluster: a node that started meanwhile queues the
        // Repairing ones again, and the node running it keeps it.
        var held = await locks.TryAcquireAsync("par2", ticket.JobId, stoppingToken);
        if (held is null)
        {
            logger.LogInformation("The PAR2 repair of {Job} runs on another node; this one leaves it", ticket.Job);
            queue.End(ticket);
            return;
        }

        await using var heldLifetime = held;
        queue.Begin(ticket);
        try
        {
            await repairer.RunPar2Async(ticket, stoppingToken);
        }
        catch (Exception) when (stoppingToken.IsCancellationRequested)
        {
            // Whatever the stop made a read throw, the repair did not fail: it stays Repairing.
            throw new OperationCanceledException(stoppingToken);
        }
        catch (Exception ex)
        {
            logger.LogError(ex, "PAR2 repair of {Job} failed", ticket.Job);
            await repairer.Par2CrashedAsync(ticket, ex.Message, stoppingToken);
        }
        finally
        {
            queue.End(ticket);
        }
    }

    // What a rebuild cut short by a kill left (a clean end deletes its own): no repair runs yet.
    private void DeleteScratch()
    {
        var directory = Par2JobRepairer.ScratchDirectory(nzbdav.CurrentValue);
        if (!Directory.Exists(directory))
            return;
        foreach (var file in Directory.EnumerateFiles(directory, "*.scratch"))
        {
            try
            {
                File.Delete(file);
                logger.LogInformation("Deleted {File}, left by a PAR2 rebuild the last stop cut short", file);
            }
            catch (IOException error)
            {
                logger.LogWarning("Could not delete {File}: {Reason}", file, error.Message);
            }
        }
    }

    private async Task ResumeAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var interrupted = await context.FileHealth.AsNoTracking().Where(h => h.Repair == RepairStatus.Repairing)
            .Join(context.DavItems, h => h.DavItemId, i => i.Id, (h, i) => new { i.Id, i.JobId, i.Path })
            .Join(context.Jobs, x => x.JobId, j => j.Id, (x, j) => new { x.Id, x.JobId, x.Path, j.Name })
            .ToListAsync(cancellationToken);
        foreach (var job in interrupted.GroupBy(x => x.JobId))
        {
            var first = job.First();
            if (!queue.TryEnqueue(new Par2RepairTicket(job.Key, first.Id, first.Name, userAsked: false, planned: 0)))
                continue;
            await audit.WriteAsync(HealthAudit.Entry(first.Id, job.Key, first.Path, "par2-resumed",
                "The server stopped during this PAR2 repair; nothing of it was kept, and it starts again."), cancellationToken);
            logger.LogInformation("Resuming the PAR2 repair of {Job}, interrupted by the last stop", first.Name);
        }
    }
}
