using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Queue;

/// <summary>Saves a job's outcome: its virtual tree and Completed status in one transaction, or Failed with the reason.</summary>
public sealed class JobCompletion(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<NzbDavOptions> options,
    TimeProvider timeProvider,
    ILogger<JobCompletion> logger)
{
    public async Task CompleteAsync(Job job, IReadOnlyList<IngestedFile> files, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var folder = await FreeFolderNameAsync(context, job, cancellationToken);
        var directoryPath = ContentFolder(job.Category) + folder;
        var directory = new DavItem { Id = Guid.NewGuid(), JobId = job.Id, Name = folder, Path = directoryPath, IsDirectory = true };
        context.DavItems.Add(directory);
        long total = 0;
        foreach (var file in files)
        {
            var size = file.Layout.Length;
            total += size;
            context.DavItems.Add(new DavItem
            {
                Id = Guid.NewGuid(),
                JobId = job.Id,
                ParentId = directory.Id,
                Name = file.Name,
                Path = directoryPath + "/" + file.Name,
                Size = size,
                Layout = DavFileLayoutCodec.Encode(file.Layout),
            });
        }

        var storage = options.CurrentValue.StoragePathFor(job.Category, folder);
        await using var transaction = await context.Database.BeginTransactionAsync(cancellationToken);
        // Only a job still Processing completes: a delete or pause during ingestion wins.
        var updated = await context.Jobs.Where(j => j.Id == job.Id && j.Status == JobStatus.Processing)
            .ExecuteUpdateAsync(s => s
                .SetProperty(j => j.Status, JobStatus.Completed)
                .SetProperty(j => j.CompletedAt, timeProvider.GetUtcNow().UtcDateTime)
                .SetProperty(j => j.StoragePath, storage)
                .SetProperty(j => j.TotalBytes, total)
                .SetProperty(j => j.FailMessage, (string?)null), cancellationToken);
        if (updated == 0)
            return;
        await context.SaveChangesAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        logger.LogInformation("Completed {NzoId} {JobName}: {Files} file(s), {Bytes} bytes at {Storage}", job.NzoId, job.Name, files.Count, total, storage);
    }

    public async Task FailAsync(Guid jobId, string reason, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        await context.Jobs.Where(j => j.Id == jobId && j.Status == JobStatus.Processing)
            .ExecuteUpdateAsync(s => s
                .SetProperty(j => j.Status, JobStatus.Failed)
                .SetProperty(j => j.FailMessage, reason)
                .SetProperty(j => j.CompletedAt, timeProvider.GetUtcNow().UtcDateTime), cancellationToken);
    }

    // SAB's "*" (no category) is not a usable folder name.
    private static string ContentFolder(string category) =>
        "/content/" + (category == SabCategories.Default ? "default" : category) + "/";

    /// <summary>The job name, or "name (2)", "name (3)"… when another job already uses the folder.</summary>
    private static async Task<string> FreeFolderNameAsync(NzbDavDbContext context, Job job, CancellationToken cancellationToken)
    {
        var prefix = ContentFolder(job.Category);
        for (var n = 1; ; n++)
        {
            var candidate = n == 1 ? job.Name : job.Name + " (" + n + ")";
            var path = prefix + candidate;
            if (!await context.DavItems.AnyAsync(d => d.Path == path, cancellationToken))
                return candidate;
        }
    }
}
