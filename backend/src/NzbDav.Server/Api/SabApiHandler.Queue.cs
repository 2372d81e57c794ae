using System.Globalization;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data.Entities;

namespace NzbDav.Server.Api;

public sealed partial class SabApiHandler
{
    private static readonly JobStatus[] QueueStatuses = [JobStatus.Queued, JobStatus.Paused, JobStatus.Processing];

    private async Task<IResult> QueueAsync(SabRequest request, CancellationToken cancellationToken)
    {
        switch (request.Get("name")?.ToLowerInvariant())
        {
            case null:
                return await ListQueueAsync(request, cancellationToken);
            case "delete":
                return SabJson.Ok(new SabAddResult(true, await DeleteJobsAsync(request.Ids, QueueStatuses, cancellationToken)));
            case "pause":
                return SabJson.Ok(new SabAddResult(true, await SetPausedAsync(request.Ids, paused: true, cancellationToken)));
            case "resume":
                return SabJson.Ok(new SabAddResult(true, await SetPausedAsync(request.Ids, paused: false, cancellationToken)));
            default:
                return SabJson.Error("not implemented");
        }
    }

    private async Task<IResult> ListQueueAsync(SabRequest request, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var query = context.Jobs.AsNoTracking().Where(j => QueueStatuses.Contains(j.Status));
        var category = request.Get("cat");
        if (category is not null)
            query = query.Where(j => j.Category == category);
        // Running first, then SAB's priority order, then arrival. The whole queue is read: a slot's
        // time left depends on every job ahead of it (queues are short; paging happens below).
        var all = await query
            .OrderByDescending(j => j.Status == JobStatus.Processing)
            .ThenByDescending(j => j.Priority)
            .ThenBy(j => j.AddedAt)
            .ToListAsync(cancellationToken);
        var settings = options.CurrentValue;
        var paused = pause.IsPaused || settings.Queue.Hold;
        var estimate = SabQueueEstimate.Compute(all, progress, paused, settings.Queue.MaxConcurrentJobs);
        var start = Math.Max(0, request.GetInt("start", 0));
        var limit = request.GetInt("limit", 0);
        var page = all.Skip(start).Take(limit > 0 ? limit : int.MaxValue);
        var slots = page.Select((job, i) =>
        {
            var figures = estimate.For(job);
            return new SabQueueSlot(
                start + i,
                job.NzoId,
                job.Name,
                job.Category,
                SabFormat.Priority(job.Priority),
                SabFormat.QueueStatus(job.Status),
                SabFormat.Megabytes(job.TotalBytes),
                SabFormat.Megabytes(figures.BytesLeft),
                SabFormat.Size(job.TotalBytes),
                SabFormat.Size(figures.BytesLeft),
                figures.Percentage.ToString(CultureInfo.InvariantCulture),
                SabFormat.TimeLeft(figures.TimeLeft),
                job.Password ?? "",
                []);
        }).ToList();
        var status = paused ? "Paused" : all.Any(j => j.Status == JobStatus.Processing) ? "Downloading" : "Idle";
        return SabJson.Ok(new
        {
            queue = new SabQueue(status, paused, slots.Count, all.Count,
                SabFormat.Speed(estimate.BytesPerSecond), SabFormat.KbPerSecond(estimate.BytesPerSecond),
                SabFormat.Megabytes(estimate.Bytes), SabFormat.Megabytes(estimate.BytesLeft),
                SabFormat.Size(estimate.Bytes), SabFormat.Size(estimate.BytesLeft),
                SabFormat.TimeLeft(estimate.TimeLeft), SabFormat.Eta(timeProvider.GetLocalNow(), estimate.TimeLeft), Version, slots),
        });
    }

    private async Task<IReadOnlyList<string>> DeleteJobsAsync(IReadOnlyList<string> ids, JobStatus[] statuses, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var all = ids.Any(id => id.Equals("all", StringComparison.OrdinalIgnoreCase));
        var onlyFailed = ids.Any(id => id.Equals("failed", StringComparison.OrdinalIgnoreCase));
        var query = context.Jobs.Where(j => statuses.Contains(j.Status));
        if (onlyFailed)
            query = query.Where(j => j.Status == JobStatus.Failed);
        else if (!all)
            query = query.Where(j => ids.Contains(j.NzoId));
        var jobs = await query.Select(j => new { j.Id, j.NzoId }).ToListAsync(cancellationToken);
        foreach (var job in jobs)
            cancellations.Cancel(job.Id);
        var jobIds = jobs.Select(j => j.Id).ToList();
        // Cascades remove the stored NZB and the job's virtual tree.
        await context.Jobs.Where(j => jobIds.Contains(j.Id)).ExecuteDeleteAsync(cancellationToken);
        if (jobs.Count > 0)
            logger.LogInformation("Deleted jobs {NzoIds}", string.Join(", ", jobs.Select(j => j.NzoId)));
        return jobs.Select(j => j.NzoId).ToList();
    }

    private async Task<IReadOnlyList<string>> SetPausedAsync(IReadOnlyList<string> ids, bool paused, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        JobStatus[] from = paused ? [JobStatus.Queued, JobStatus.Processing] : [JobStatus.Paused];
        var jobs = await context.Jobs.Where(j => ids.Contains(j.NzoId) && from.Contains(j.Status)).ToListAsync(cancellationToken);
        foreach (var job in jobs)
        {
            if (job.Status == JobStatus.Processing)
                cancellations.Cancel(job.Id);
            job.Status = paused ? JobStatus.Paused : JobStatus.Queued;
        }

        await context.SaveChangesAsync(cancellationToken);
        if (!paused && jobs.Count > 0)
            signal.Notify();
        return jobs.Select(j => j.NzoId).ToList();
    }
}
