using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Mount;
using NzbDav.Server.Queue;

namespace NzbDav.Server.WebDav;

/// <summary>DELETE of a queued NZB or a job folder: stops a running ingestion, then removes the job with its NZB and tree.</summary>
public sealed class DavJobRemover(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    JobCancellations cancellations,
    LibraryChanges changes,
    ILogger<DavJobRemover> logger,
    Health.Par2.SegmentPatchStore? patches = null)
{
    /// <summary>False when the job was already gone.</summary>
    public async Task<bool> RemoveAsync(Guid jobId, CancellationToken cancellationToken)
    {
        cancellations.Cancel(jobId);
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var completedIn = await context.Jobs.Where(j => j.Id == jobId && j.Status == JobStatus.Completed).Select(j => j.Category).FirstOrDefaultAsync(cancellationToken);
        // Cascades remove the stored NZB and the job's DavItems.
        var removed = await context.Jobs.Where(j => j.Id == jobId).ExecuteDeleteAsync(cancellationToken);
        if (removed > 0)
        {
            patches?.ForgetJobs([jobId]);
            // A DELETE from another client than the mount's own rclone: the mount must forget the folder too.
            if (completedIn is not null)
                changes.Changed(completedIn);
            logger.LogInformation("Deleted job {JobId} over WebDAV", jobId);
        }
        return removed > 0;
    }
}
