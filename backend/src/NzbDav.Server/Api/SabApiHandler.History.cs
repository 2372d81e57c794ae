using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Api;

public sealed partial class SabApiHandler
{
        private async Task<IResult> HistoryAsync(SabRequest request, CancellationToken cancellationToken)
    {
        switch (request.Get("name")?.ToLowerInvariant())
        {
            case null:
                return await ListHistoryAsync(request, cancellationToken);
            case "delete":
                // del_files is ignored on purpose: Sonarr sends it after a symlink import, and deleting
                // the files would break the links it just imported (see JobCommands).
                await jobs.RemoveFromHistoryAsync(request.Ids, cancellationToken);
                return SabJson.True();
            default:
                return SabJson.Error("not implemented");
        }
    }

    private async Task<IResult> ListHistoryAsync(SabRequest request, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var query = context.Jobs.AsNoTracking().Where(j => JobCommands.HistoryStatuses.Contains(j.Status) && !j.RemovedFromHistory);
        // Sonarr and Radarr filter with SABnzbd's history parameter, category; cat is what mode=queue takes.
        var category = request.Get("category") ?? request.Get("cat");
        if (category is not null)
            query = query.Where(j => j.Category == category);
        var total = await query.CountAsync(cancellationToken);
        var totalBytes = await query.SumAsync(j => j.TotalBytes, cancellationToken);
        var start = Math.Max(0, request.GetInt("start", 0));
        var limit = request.GetInt("limit", 0);
        // The page is read in history order through an index named for it and cut at the limit;
        // left to itself SQLite filters through the Status or Category index and sorts every match.
        var inOrder = context.JobsThrough(category is null ? NzbDavDbContext.HistoryOrderIndex : NzbDavDbContext.CategoryHistoryOrderIndex).AsNoTracking()
            .Where(j => JobCommands.HistoryStatuses.Contains(j.Status) && !j.RemovedFromHistory);
        if (category is not null)
            inOrder = inOrder.Where(j => j.Category == category);
        var ordered = inOrder.OrderByDescending(j => j.CompletedAt).Skip(start);
        var jobs = await (limit > 0 ? ordered.Take(limit) : ordered).ToListAsync(cancellationToken);
        var slots = jobs.Select(job =>
        {
            var completed = job.CompletedAt ?? job.AddedAt;
            return new SabHistorySlot(
                job.NzoId,
                job.Name,
                job.Name + ".nzb",
                job.Category,
                SabFormat.HistoryStatus(job.Status),
                job.FailMessage ?? "",
                job.StoragePath,
                job.StoragePath,
                job.TotalBytes,
                SabFormat.Size(job.TotalBytes),
                Math.Max(0, SabFormat.UnixSeconds(completed) - SabFormat.UnixSeconds(job.AddedAt)),
                SabFormat.UnixSeconds(completed),
                "D",
                "None");
        }).ToList();
        return SabJson.Ok(new { history = new SabHistory(total, SabFormat.Size(totalBytes), slots) });
    }

    private async Task<IResult> RetryAsync(SabRequest request, CancellationToken cancellationToken)
    {
        var nzoId = request.Get("value");
        if (nzoId is null)
            return SabJson.Error("Job not found in failed history");
        var refused = await jobs.RetryAsync(nzoId, cancellationToken);
        return refused is null ? SabJson.Ok(new { status = true, nzo_id = nzoId }) : SabJson.Error(refused);
    }
}
