using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Mount;

namespace NzbDav.Server.Queue;

/// <summary>
/// What a user can do to jobs, the same through the SABnzbd API and the web UI: delete, pause,
/// resume, reprioritise, retry and remove a history entry. Each change is saved before it answers;
/// a running ingestion is cancelled first, so a deleted or paused job never completes afterwards.
/// </summary>
public sealed class JobCommands(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    QueueSignal signal,
    JobCancellations cancellations,
    LibraryChanges changes,
    ILogger<JobCommands> logger,
    Health.Par2.SegmentPatchStore? patches = null)
{
    public static readonly JobStatus[] QueueStatuses = [JobStatus.Queued, JobStatus.Paused, JobStatus.Processing];
    public static readonly JobStatus[] HistoryStatuses = [JobStatus.Completed, JobStatus.Failed];

    /// <summary>
    /// The queue's jobs of <paramref name="category"/> (all when null) in the order they run: running
    /// first, then SAB's priority order, then arrival — the order the queue service claims them in.
    /// The whole queue is read, since a job's time left depends on every job ahead of it.
    /// </summary>
    public static Task<List<Job>> QueueInRunOrderAsync(NzbDavDbContext context, string? category, CancellationToken cancellationToken)
    {
        var query = context.Jobs.AsNoTracking().Where(j => QueueStatuses.Contains(j.Status));
        if (category is not null)
            query = query.Where(j => j.Category == category);
        return query
            .OrderByDescending(j => j.Status == JobStatus.Processing)
            .ThenByDescending(j => j.Priority)
            .ThenBy(j => j.AddedAt)
            .ToListAsync(cancellationToken);
    }

    /// <summary>
    /// Deletes jobs in one of <paramref name="statuses"/> with their NZB and files. The ids may also
    /// be SABnzbd's <c>all</c> or <c>failed</c>. Answers the ids deleted.
    /// </summary>
    public async Task<IReadOnlyList<string>> DeleteAsync(IReadOnlyList<string> ids, JobStatus[] statuses, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var all = ids.Any(id => id.Equals("all", StringComparison.OrdinalIgnoreCase));
        var onlyFailed = ids.Any(id => id.Equals("failed", StringComparison.OrdinalIgnoreCase));
        var query = context.Jobs.Where(j => statuses.Contains(j.Status));
        if (onlyFailed)
            query = query.Where(j => j.Status == JobStatus.Failed);
        else if (!all)
            query = query.Where(j => ids.Contains(j.NzoId));
        var jobs = await query.Select(j => new { j.Id, j.NzoId, j.Category, j.Status }).ToListAsync(cancellationToken);
        foreach (var job in jobs)
            cancellations.Cancel(job.Id);
        var jobIds = jobs.Select(j => j.Id).ToList();
        // Cascades remove the stored NZB and the job's virtual tree.
        await context.Jobs.Where(j => jobIds.Contains(j.Id)).ExecuteDeleteAsync(cancellationToken);
        patches?.ForgetJobs(jobIds);
        foreach (var category in jobs.Where(static j => j.Status == JobStatus.Completed).Select(static j => j.Category).Distinct(StringComparer.Ordinal))
            changes.Changed(category);
        if (jobs.Count > 0)
            logger.LogInformation("Deleted jobs {NzoIds}", string.Join(", ", jobs.Select(j => j.NzoId)));
        return jobs.Select(j => j.NzoId).ToList();
    }

    /// <summary>
    /// SABnzbd's history delete, as Sonarr/Radarr send it after importing (with <c>del_files=1</c>):
    /// completed jobs leave the history but keep their files, because the imported symlinks point
    /// into them; failed jobs have none and are deleted. The ids may also be <c>all</c> or
    /// <c>failed</c>. Answers the ids removed.
    /// </summary>
    public async Task<IReadOnlyList<string>> RemoveFromHistoryAsync(IReadOnlyList<string> ids, CancellationToken cancellationToken)
    {
        var all = ids.Any(id => id.Equals("all", StringComparison.OrdinalIgnoreCase));
        var onlyFailed = ids.Any(id => id.Equals("failed", StringComparison.OrdinalIgnoreCase));
        if (all || onlyFailed)
        {
            var failed = await DeleteAsync(["failed"], HistoryStatuses, cancellationToken);
            if (!all)
                return failed;
            await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
            var completed = await context.Jobs.Where(j => j.Status == JobStatus.Completed && !j.RemovedFromHistory).Select(j => j.NzoId).ToListAsync(cancellationToken);
            await context.Jobs.Where(j => j.Status == JobStatus.Completed).ExecuteUpdateAsync(s => s.SetProperty(j => j.RemovedFromHistory, true), cancellationToken);
            logger.LogInformation("Removed every job from the history; completed jobs' files stay in the library");
            return [.. failed, .. completed];
        }

        var removed = new List<string>();
        foreach (var id in ids.Distinct(StringComparer.Ordinal))
        {
            if (await RemoveFromHistoryAsync(id, cancellationToken))
                removed.Add(id);
        }
        return removed;
    }

    /// <summary>
    /// Removes a history entry but keeps a completed job's files in the library (the *arr app may
    /// have imported links to them). A failed job has no files, so it is deleted. False when the id
    /// is not in the history.
    /// </summary>
    public async Task<bool> RemoveFromHistoryAsync(string nzoId, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var job = await context.Jobs.FirstOrDefaultAsync(j => j.NzoId == nzoId && HistoryStatuses.Contains(j.Status) && !j.RemovedFromHistory, cancellationToken);
        if (job is null)
            return false;
        if (job.Status == JobStatus.Failed)
            context.Jobs.Remove(job);
        else
            job.RemovedFromHistory = true;
        await context.SaveChangesAsync(cancellationToken);
        logger.LogInformation("Removed {NzoId} {JobName} from the history{Kept}", job.NzoId, job.Name, job.Status == JobStatus.Completed ? "; its files stay in the library" : "");
        return true;
    }

    /// <summary>Pauses (queued or running) or resumes (paused) jobs; answers the ids that changed.</summary>
    public async Task<IReadOnlyList<string>> SetPausedAsync(IReadOnlyList<string> ids, bool paused, CancellationToken cancellationToken)
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

    /// <summary>Sets a queued job's SABnzbd priority (-1 low … 2 force); false when it is not in the queue.</summary>
    public async Task<bool> SetPriorityAsync(string nzoId, int priority, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(priority, -1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(priority, 2);
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var changed = await context.Jobs.Where(j => j.NzoId == nzoId && QueueStatuses.Contains(j.Status))
            .ExecuteUpdateAsync(s => s.SetProperty(j => j.Priority, priority), cancellationToken);
        if (changed > 0)
            signal.Notify();
        return changed > 0;
    }

    /// <summary>
    /// Puts a failed job back in the queue to ingest its stored NZB again. Answers null when queued,
    /// else why not (not a failed job, or an NZB that can never parse).
    /// </summary>
    public async Task<string?> RetryAsync(string nzoId, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var job = await context.Jobs.FirstOrDefaultAsync(j => j.NzoId == nzoId && j.Status == JobStatus.Failed, cancellationToken);
        if (job is null)
            return "Job not found in failed history";
        if (!Api.JobSubmitter.CanRetry(job.FailMessage))
            return job.FailMessage;
        job.Status = JobStatus.Queued;
        job.FailMessage = null;
        job.CompletedAt = null;
        job.StoragePath = null;
        job.RemovedFromHistory = false;
        await context.DavItems.Where(d => d.JobId == job.Id).ExecuteDeleteAsync(cancellationToken);
        await context.SaveChangesAsync(cancellationToken);
        logger.LogInformation("Retrying {NzoId} {JobName} from its stored NZB", job.NzoId, job.Name);
        signal.Notify();
        return null;
    }
}
