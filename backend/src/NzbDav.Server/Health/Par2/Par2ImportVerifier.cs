using System.Threading.Channels;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;

namespace NzbDav.Server.Health.Par2;

/// <summary>
/// <see cref="HealthOptions.Par2VerifyAtImport"/>: each completed job's PAR2 slices are sampled in
/// the background, one job at a time, on the health-check pool. Segments of a slice that does not
/// match become holes of the files holding them (served as zeros, not wrong bytes), and the files
/// go to the repair policy as newly Degraded: PAR2 rebuilds them when it can.
/// </summary>
public sealed class Par2ImportVerifier(
    Par2JobRepairer par2,
    HealthRepairer repairer,
    FileHoles holes,
    HealthAudit audit,
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<HealthOptions> options,
    ILogger<Par2ImportVerifier> logger) : BackgroundService
{
    private readonly Channel<Guid> _jobs = Channel.CreateUnbounded<Guid>(new UnboundedChannelOptions { SingleReader = true });
    private int _pending;

    /// <summary>Jobs waiting for or going through their verification.</summary>
    public int Pending => Volatile.Read(ref _pending);

    /// <summary>Verifies <paramref name="jobId"/> once the jobs before it are done.</summary>
    public void Enqueue(Guid jobId)
    {
        Interlocked.Increment(ref _pending);
        _jobs.Writer.TryWrite(jobId);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await foreach (var jobId in _jobs.Reader.ReadAllAsync(stoppingToken))
            {
                try
                {
                    await VerifyAsync(jobId, stoppingToken);
                }
                catch (Exception ex) when (!stoppingToken.IsCancellationRequested)
                {
                    logger.LogWarning(ex, "PAR2 verification of job {JobId} failed; the health checks go on as usual", jobId);
                }
                finally
                {
                    Interlocked.Decrement(ref _pending);
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // Stopping: a verification not done is not needed for anything.
        }
    }

    private async Task VerifyAsync(Guid jobId, CancellationToken cancellationToken)
    {
        var result = await par2.VerifyAsync(jobId, options.CurrentValue.Par2VerifySlices, cancellationToken);
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var items = await context.DavItems.Where(i => i.JobId == jobId && !i.IsDirectory && i.Layout != null).ToListAsync(cancellationToken);
        var first = items.OrderBy(i => i.Path, StringComparer.Ordinal).FirstOrDefault();
        if (!result.Verified || result.DamagedSegments.Count == 0)
        {
            if (first is not null)
                await audit.WriteAsync(HealthAudit.Entry(first.Id, jobId, first.Path, result.Verified ? "par2-verified" : "par2-skipped", result.Summary), cancellationToken);
            return;
        }

        logger.LogWarning("{Summary} ({Job})", result.Summary, first?.Path ?? jobId.ToString());
        var damaged = result.DamagedSegments.ToHashSet(StringComparer.Ordinal);
        var affected = new List<Guid>();
        foreach (var item in items)
        {
            var ids = DavFileLayoutCodec.Decode(item.Layout!).Parts.SelectMany(p => p.MessageIds).Where(damaged.Contains).Distinct(StringComparer.Ordinal).ToList();
            if (ids.Count == 0)
                continue;
            var health = await context.FileHealth.FirstOrDefaultAsync(h => h.DavItemId == item.Id, cancellationToken);
            if (health is null)
                continue;
            var missing = HealthIds.Split(health.MissingIds).Concat(ids).Distinct(StringComparer.Ordinal).ToList();
            health.MissingIds = HealthIds.Join(missing);
            health.MissingCount = missing.Count;
            if (health.State == FileHealthState.Healthy)
                health.State = FileHealthState.Degraded;
            health.Detail = result.Summary;
            holes.Set(item.Id, missing);
            affected.Add(item.Id);
            await audit.WriteAsync(HealthAudit.Entry(item.Id, jobId, item.Path, "par2-verify-failed", result.Summary), cancellationToken);
        }

        await context.SaveChangesAsync(cancellationToken);
        foreach (var itemId in affected)
            await repairer.RepairAsync(itemId, userAsked: false, cancellationToken);
    }
}
