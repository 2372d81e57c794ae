using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebDav;

public sealed partial class DavTree
{
    private static readonly JobStatus[] QueueStatuses = [JobStatus.Queued, JobStatus.Paused, JobStatus.Processing];

    /// <summary>
    /// The SAB category a <c>/nzbs</c> folder stands for: the root is "no category", a subfolder a
    /// configured category. Null when the folder does not exist.
    /// </summary>
    internal string? NzbFolderCategory(IReadOnlyList<string> folderSegments) => folderSegments.Count switch
    {
        1 => SabCategories.Default,
        2 when Categories.Contains(folderSegments[1], StringComparer.Ordinal) => folderSegments[1],
        _ => null,
    };

    private async Task<DavResource?> ResolveNzbAsync(IReadOnlyList<string> segments, CancellationToken cancellationToken)
    {
        if (segments.Count == 1 || (segments.Count == 2 && NzbFolderCategory(segments) is not null))
            return Folder(segments);
        var category = NzbFolderCategory(segments.Take(segments.Count - 1).ToList());
        if (category is null)
            return null;
        var listed = (await ListQueuedAsync(segments.Take(segments.Count - 1).ToList(), category, cancellationToken))
            .FirstOrDefault(r => r.Name == segments[^1]);
        if (listed is null)
            return null;

        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var stored = await context.JobNzbs.AsNoTracking().FirstOrDefaultAsync(n => n.JobId == listed.JobId, cancellationToken);
        if (stored is null)
            return null;
        using var nzb = new MemoryStream((int)Math.Min(stored.Length, int.MaxValue));
        await using (var gzip = NzbCompression.OpenRead(stored.GzipData))
        {
            await gzip.CopyToAsync(nzb, cancellationToken);
        }

        return listed with { Content = nzb.ToArray(), Length = nzb.Length };
    }

    private async Task<IReadOnlyList<DavResource>> ListNzbsAsync(IReadOnlyList<string> segments, CancellationToken cancellationToken)
    {
        var category = NzbFolderCategory(segments);
        if (category is null)
            return [];
        var files = await ListQueuedAsync(segments, category, cancellationToken);
        return segments.Count == 1 ? [.. Categories.Select(c => Folder(Child(segments, c))), .. files] : files;
    }

    /// <summary>One <c>&lt;job&gt;.nzb</c> per queued job; a repeated name gets the nzo id so each stays addressable.</summary>
    private async Task<IReadOnlyList<DavResource>> ListQueuedAsync(IReadOnlyList<string> folder, string category, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var jobs = await (from job in context.Jobs.AsNoTracking()
                          join nzb in context.JobNzbs on job.Id equals nzb.JobId
                          where QueueStatuses.Contains(job.Status) && job.Category == category
                          orderby job.AddedAt, job.NzoId
                          select new { job.Id, job.Name, job.NzoId, job.AddedAt, nzb.Length })
            .ToListAsync(cancellationToken);
        var used = new HashSet<string>(StringComparer.Ordinal);
        var result = new List<DavResource>(jobs.Count);
        foreach (var job in jobs)
        {
            var name = job.Name + ".nzb";
            if (!used.Add(name) || Categories.Contains(name, StringComparer.Ordinal))
            {
                name = job.Name + " (" + job.NzoId + ").nzb";
                used.Add(name);
            }

            result.Add(new DavResource
            {
                Segments = Child(folder, name),
                Kind = DavResourceKind.QueuedNzb,
                Length = job.Length,
                Modified = JobTime(job.AddedAt),
                JobId = job.Id,
                ETag = StrongETag(job.Id, job.Length),
            });
        }

        return result;
    }
}
