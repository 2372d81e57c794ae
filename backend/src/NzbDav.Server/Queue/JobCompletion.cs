using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data.Entities;
using NzbDav.Data.Layout;
using NzbDav.Data;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health;
using NzbDav.Server.Mount;
using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Queue;

/// <summary>Saves a job's outcome: its virtual tree and Completed status in one transaction, or Failed with the reason.</summary>
public sealed class JobCompletion(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<NzbDavOptions> options,
    IOptionsMonitor<HealthOptions> healthOptions,
    IOptionsMonitor<MountOptions> mount,
    LibraryChanges changes,
    TimeProvider timeProvider,
    ILogger<JobCompletion> logger,
    Health.Par2.Par2ImportVerifier? par2Verifier = null)
{
    public async Task CompleteAsync(Job job, IReadOnlyList<IngestedFile> files, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var folder = await FreeFolderNameAsync(context, job, cancellationToken);
        var directoryPath = ContentFolder(job.Category) + folder;
        var completedAt = timeProvider.GetUtcNow().UtcDateTime;
        var directory = new DavItem { Id = Guid.NewGuid(), JobId = job.Id, Name = folder, Path = directoryPath, IsDirectory = true, Modified = completedAt };
        context.DavItems.Add(directory);
        long total = 0;
        var folders = new Dictionary<string, Guid>(StringComparer.Ordinal) { [""] = directory.Id };
        var filePaths = new HashSet<string>(StringComparer.Ordinal);
        foreach (var file in files)
        {
            var relative = file.Name.Trim('/');
            // Paths are unique in the store; a second entry of the same path (a repost inside two sets) is dropped.
            if (relative.Length == 0 || folders.ContainsKey(relative) || (file.Layout is not null && !filePaths.Add(relative)))
                continue;
            var slash = relative.LastIndexOf('/');
            var parentId = FolderId(context, job.Id, directoryPath, completedAt, folders, slash < 0 ? "" : relative[..slash]);
            if (file.Layout is null)
            {
                FolderId(context, job.Id, directoryPath, completedAt, folders, relative);
                continue;
            }

            var size = file.Layout.Length;
            total += size;
            var item = new DavItem
            {
                Id = Guid.NewGuid(),
                JobId = job.Id,
                ParentId = parentId,
                Name = relative[(slash + 1)..],
                Path = directoryPath + "/" + relative,
                Size = size,
                Modified = completedAt,
                Layout = DavFileLayoutCodec.Encode(file.Layout),
            };
            context.DavItems.Add(item);
            var health = file.Health ?? new ImportHealth(job.AddedAt, 0, 0, []);
            context.FileHealth.Add(health.ToRow(item, FileSegments.Of(file.Layout).Count, healthOptions.CurrentValue, completedAt));
        }

        var storage = options.CurrentValue.StoragePathFor(job.Category, folder);
        await using var transaction = await context.Database.BeginTransactionAsync(cancellationToken);
        // Only a job still Processing and still this node's completes: a delete or pause during
        // ingestion wins, and so does another node that took the job over from one taken for gone.
        var updated = await context.Jobs.Where(j => j.Id == job.Id && j.Status == JobStatus.Processing && j.ClaimedBy == job.ClaimedBy)
            .ExecuteUpdateAsync(s => s
                .SetProperty(j => j.Status, JobStatus.Completed)
                .SetProperty(j => j.CompletedAt, completedAt)
                .SetProperty(j => j.StoragePath, storage)
                .SetProperty(j => j.TotalBytes, total)
                .SetProperty(j => j.FailMessage, (string?)null), cancellationToken);
        if (updated == 0)
            return;
        await context.SaveChangesAsync(cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        changes.Changed(job.Category);
        if (healthOptions.CurrentValue.Par2VerifyAtImport)
            par2Verifier?.Enqueue(job.Id);
        // The storage path is where Sonarr/Radarr look: on the mount, which may not be up (or be someone else's rclone).
        if (mount.CurrentValue.Enabled)
        {
            logger.LogInformation("Completed {NzoId} {JobName}: {Files} file(s), {Size}; Sonarr/Radarr import it from {Storage} on the managed mount",
                job.NzoId, job.Name, files.Count, ByteSize.Approximate(total), storage);
        }
        else
        {
            logger.LogInformation("Completed {NzoId} {JobName}: {Files} file(s), {Size}; Sonarr/Radarr import it from {Storage} once this server's WebDAV is mounted there (the managed mount is off)",
                job.NzoId, job.Name, files.Count, ByteSize.Approximate(total), storage);
        }
    }

    /// <summary>Fails the job if it is still Processing by <paramref name="claimedBy"/> (see <see cref="CompleteAsync"/>).</summary>
    public async Task FailAsync(Guid jobId, Guid? claimedBy, string reason, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        await context.Jobs.Where(j => j.Id == jobId && j.Status == JobStatus.Processing && j.ClaimedBy == claimedBy)
            .ExecuteUpdateAsync(s => s
                .SetProperty(j => j.Status, JobStatus.Failed)
                .SetProperty(j => j.FailMessage, reason)
                .SetProperty(j => j.CompletedAt, timeProvider.GetUtcNow().UtcDateTime), cancellationToken);
    }

    /// <summary>The folder item at <paramref name="relative"/> under the job folder, created with its parents when new.</summary>
    private static Guid FolderId(NzbDavDbContext context, Guid jobId, string root, DateTime modified, Dictionary<string, Guid> folders, string relative)
    {
        if (folders.TryGetValue(relative, out var id))
            return id;
        var slash = relative.LastIndexOf('/');
        var parentId = FolderId(context, jobId, root, modified, folders, slash < 0 ? "" : relative[..slash]);
        id = Guid.NewGuid();
        context.DavItems.Add(new DavItem
        {
            Id = id,
            JobId = jobId,
            ParentId = parentId,
            Name = relative[(slash + 1)..],
            Path = root + "/" + relative,
            IsDirectory = true,
            Modified = modified,
        });
        folders[relative] = id;
        return id;
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
