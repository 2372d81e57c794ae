using System.Globalization;
using NzbDav.Data.Entities;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Api;

public sealed partial class SabApiHandler
{
        private async Task<IResult> QueueAsync(SabRequest request, CancellationToken cancellationToken)
    {
        switch (request.Get("name")?.ToLowerInvariant())
        {
            case null:
                return await ListQueueAsync(request, cancellationToken);
            case "delete":
                return SabJson.Ok(new SabAddResult(true, await jobs.DeleteAsync(request.Ids, JobCommands.QueueStatuses, cancellationToken)));
            case "pause":
                return SabJson.Ok(new SabAddResult(true, await jobs.SetPausedAsync(request.Ids, paused: true, cancellationToken)));
            case "resume":
                return SabJson.Ok(new SabAddResult(true, await jobs.SetPausedAsync(request.Ids, paused: false, cancellationToken)));
            default:
                return SabJson.Error("not implemented");
        }
    }

    private async Task<IResult> ListQueueAsync(SabRequest request, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        // Paging happens below: a slot's time left depends on every job ahead of it.
        var all = await JobCommands.QueueInRunOrderAsync(context, request.Get("cat"), cancellationToken);
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
}
