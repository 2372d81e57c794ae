using System.Collections.Frozen;
using System.Text;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebDav;

public sealed partial class DavTree
{
    private static readonly FrozenSet<string> VideoExtensions = new[]
    {
        ".mkv", ".mp4", ".m4v", ".avi", ".ts", ".m2ts", ".mov", ".wmv", ".mpg", ".mpeg", ".webm",
    }.ToFrozenSet(StringComparer.OrdinalIgnoreCase);

    /// <summary>Whether <c>Strm</c> entries give the file a <c>.strm</c> (videos only).</summary>
    internal static bool IsVideo(string name) => VideoExtensions.Contains(Path.GetExtension(name));

    private sealed record CompletedJob(Guid Id, string Folder, DateTimeOffset Modified);

    /// <summary>
    /// Mirrors <see cref="NzbDavOptions.StoragePathFor"/>: category jobs live in
    /// <c>/completed/&lt;category&gt;/&lt;job&gt;</c>, "no category" jobs directly in <c>/completed/&lt;job&gt;</c>.
    /// </summary>
    private async Task<DavResource?> ResolveCompletedAsync(IReadOnlyList<string> segments, string baseUrl, CancellationToken cancellationToken)
    {
        if (segments.Count == 1)
            return Folder(segments);
        var isCategory = Categories.Contains(segments[1], StringComparer.Ordinal);
        if (segments.Count == 2 && isCategory)
            return Folder(segments);

        // Looked up by name, never by listing the parent: a category folder of 10,000 jobs is not
        // read to find one of them.
        var jobDepth = isCategory ? 3 : 2;
        if (segments.Count > jobDepth + 1)
            return null;
        var job = await CompletedJobAsync(isCategory ? segments[1] : SabCategories.Default, segments[jobDepth - 1], cancellationToken);
        if (job is null || (!isCategory && Categories.Contains(job.Folder, StringComparer.Ordinal)))
            return null;
        var folder = segments.Take(jobDepth).ToList();
        if (segments.Count == jobDepth)
            return JobEntryFolder(segments.Take(jobDepth - 1).ToList(), job);
        var entries = await EntriesAsync(folder, job, baseUrl, cancellationToken);
        return entries.FirstOrDefault(r => r.Name == segments[^1]);
    }

    private async Task<IReadOnlyList<DavResource>> ListCompletedAsync(IReadOnlyList<string> segments, string baseUrl, CancellationToken cancellationToken)
    {
        if (segments.Count == 1)
        {
            var defaults = await CompletedJobsAsync(SabCategories.Default, cancellationToken);
            return [.. Categories.Select(c => Folder(Child(segments, c))),
                .. defaults.Where(j => !Categories.Contains(j.Folder, StringComparer.Ordinal)).Select(j => JobEntryFolder(segments, j))];
        }

        var isCategory = Categories.Contains(segments[1], StringComparer.Ordinal);
        if (segments.Count == 2 && isCategory)
            return [.. (await CompletedJobsAsync(segments[1], cancellationToken)).Select(j => JobEntryFolder(segments, j))];

        var jobDepth = isCategory ? 3 : 2;
        if (segments.Count != jobDepth)
            return [];
        var job = await CompletedJobAsync(isCategory ? segments[1] : SabCategories.Default, segments[^1], cancellationToken);
        return job is null ? [] : await EntriesAsync(segments, job, baseUrl, cancellationToken);
    }

    private static DavResource JobEntryFolder(IReadOnlyList<string> parent, CompletedJob job) =>
        new() { Segments = Child(parent, job.Folder), Kind = DavResourceKind.Folder, Modified = job.Modified, JobId = job.Id };

    /// <summary>The ids of a category's completed jobs, from the index on (category, status, …, id) alone.</summary>
    internal static IQueryable<Guid> CompletedJobIds(IQueryable<Job> jobs, string category) =>
        jobs.Where(j => j.Category == category && j.Status == JobStatus.Completed).Select(j => j.Id);

    /// <summary>The completed jobs of a category: its job folders under <c>/content</c>, read as one index range.</summary>
    private async Task<IReadOnlyList<CompletedJob>> CompletedJobsAsync(string category, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        // Two index ranges matched in memory: the category's completed jobs (ids from the Jobs index
        // on category and status) and the folders under its /content folder. Joined in SQL, each of
        // 10,000 folders looked up its job's row: SQLite spent most of the listing on it and
        // PostgreSQL hashed the whole Jobs table (120 ms at 100,000 jobs).
        var completed = (await CompletedJobIds(context.Jobs.AsNoTracking(), category).ToListAsync(cancellationToken)).ToHashSet();
        if (completed.Count == 0)
            return [];
        var rows = await (from root in JobFolders(context.DavItems.AsNoTracking(), CategoryFolder(category))
                          where root.IsDirectory
                          orderby root.Path
                          select new { root.JobId, root.Name, root.Modified })
            .ToListAsync(cancellationToken);
        return [.. rows.Where(r => completed.Contains(r.JobId)).Select(r => new CompletedJob(r.JobId, r.Name, JobTime(r.Modified)))];
    }

    /// <summary>The completed job of a category whose folder is <paramref name="folder"/>, by its unique path.</summary>
    private async Task<CompletedJob?> CompletedJobAsync(string category, string folder, CancellationToken cancellationToken)
    {
        var path = "/" + Content + "/" + CategoryFolder(category) + "/" + folder;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var row = await (from root in context.DavItems.AsNoTracking()
                         join job in context.Jobs on root.JobId equals job.Id
                         where root.Path == path && root.ParentId == null && root.IsDirectory && job.Status == JobStatus.Completed && job.Category == category
                         select new { job.Id, root.Name, root.Modified })
            .FirstOrDefaultAsync(cancellationToken);
        return row is null ? null : new CompletedJob(row.Id, row.Name, JobTime(row.Modified));
    }

    /// <summary>
    /// One entry per file: <c>&lt;name&gt;.rclonelink</c> holding <c>&lt;MountPath&gt;/.ids/&lt;id&gt;</c>
    /// (rclone <c>--links</c> shows it as a symlink named <c>&lt;name&gt;</c>), or for
    /// <see cref="CompletedEntryKind.Strm"/> a <c>.strm</c> per video holding its URL.
    /// </summary>
    private async Task<IReadOnlyList<DavResource>> EntriesAsync(IReadOnlyList<string> folder, CompletedJob job, string baseUrl, CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var files = await context.DavItems.AsNoTracking()
            .Where(i => i.JobId == job.Id && !i.IsDirectory)
            .OrderBy(i => i.Path)
            .Select(i => new { i.Id, i.Name })
            .ToListAsync(cancellationToken);
        var settings = options.CurrentValue;
        var strm = settings.CompletedEntries == CompletedEntryKind.Strm;
        var publicUrl = davOptions.CurrentValue.PublicUrl;
        var urlBase = (string.IsNullOrWhiteSpace(publicUrl) ? baseUrl : publicUrl).TrimEnd('/');
        var used = new HashSet<string>(StringComparer.Ordinal);
        var entries = new List<DavResource>(files.Count);
        foreach (var file in files)
        {
            string name, target;
            if (strm)
            {
                if (!IsVideo(file.Name))
                    continue;
                name = Path.GetFileNameWithoutExtension(file.Name) + ".strm";
                // Signed: Jellyfin plays a .strm by plain URL, without the WebDAV login.
                target = urlBase + "/" + Ids + "/" + file.Id.ToString("D") + "?" + strmLinks.Query(file.Id);
            }
            else
            {
                name = file.Name + ".rclonelink";
                target = settings.MountPath.TrimEnd('/') + "/" + Ids + "/" + file.Id.ToString("D");
            }

            // Files from different sub-folders may share a name; the first keeps it.
            if (used.Add(name))
                entries.Add(VirtualFile(Child(folder, name), Encoding.UTF8.GetBytes(target), job.Modified) with { JobId = job.Id });
        }

        return entries;
    }
}
