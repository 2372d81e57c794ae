using System.Runtime.CompilerServices;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebDav;

public sealed partial class DavTree
{
    /// <summary>The <c>/content</c> folder of a SAB category.</summary>
    public static string CategoryFolder(string category) =>
        category == SabCategories.Default ? DefaultCategoryFolder : category;

    private async Task<IReadOnlyList<string>> ContentCategoriesAsync(NzbDavDbContext context, CancellationToken cancellationToken)
    {
        // Jobs of a category that was since removed from the configuration stay reachable. The
        // distinct categories are walked through the Category index one step per category (a
        // skip scan), so listing /content costs the number of categories, not of jobs.
        var stored = await context.Database.SqlQueryRaw<string>("""
            WITH RECURSIVE c("Value") AS (
                SELECT MIN("Category") FROM "Jobs"
                UNION ALL
                SELECT (SELECT MIN("Category") FROM "Jobs" WHERE "Category" > c."Value") FROM c WHERE c."Value" IS NOT NULL)
            SELECT "Value" FROM c WHERE "Value" IS NOT NULL
            """).ToListAsync(cancellationToken);
        return [.. new[] { DefaultCategoryFolder }.Concat(Categories).Concat(stored.Select(CategoryFolder)).Distinct(StringComparer.Ordinal)];
    }

    /// <summary>Whether <c>/content/&lt;folder&gt;</c> exists: the default's, a configured category's, or one some job still has.</summary>
    private async Task<bool> IsContentCategoryAsync(NzbDavDbContext context, string folder, CancellationToken cancellationToken) =>
        folder == DefaultCategoryFolder || Categories.Contains(folder, StringComparer.Ordinal)
        || await context.Jobs.AnyAsync(j => j.Category == folder, cancellationToken);

    /// <summary>
    /// The job folders directly under <c>/content/&lt;folder&gt;/</c>, as a range of the (ParentId, Path)
    /// index: a category's listing reads its own jobs, however many other categories hold.
    /// </summary>
    internal static IQueryable<DavItem> JobFolders(IQueryable<DavItem> items, string folder)
    {
        var prefix = "/" + Content + "/" + folder + "/";
        // Every path below the prefix sorts before the prefix with its last '/' raised to '0'.
        var end = prefix[..^1] + (char)('/' + 1);
        return items.Where(i => i.ParentId == null && string.Compare(i.Path, prefix) > 0 && string.Compare(i.Path, end) < 0);
    }

    private async Task<DavResource?> ResolveContentAsync(IReadOnlyList<string> segments, CancellationToken cancellationToken)
    {
        if (segments.Count == 1)
            return Folder(segments);
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (segments.Count == 2)
        {
            return await IsContentCategoryAsync(context, segments[1], cancellationToken) ? Folder(segments) : null;
        }

        var path = "/" + string.Join('/', segments);
        var found = await context.DavItems.AsNoTracking().FirstOrDefaultAsync(i => i.Path == path, cancellationToken);
        return found is null ? null : FromItem(segments, found, JobTime(found.Modified));
    }

    private async Task<IReadOnlyList<DavResource>> ListContentAsync(DavResource folder, CancellationToken cancellationToken)
    {
        var segments = folder.Segments;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (segments.Count == 1)
            return [.. (await ContentCategoriesAsync(context, cancellationToken)).Select(c => Folder(Child(segments, c)))];

        if (segments.Count == 2)
        {
            var folders = new List<DavResource>();
            await foreach (var jobFolder in ReadJobFoldersAsync(context, segments, cancellationToken))
                folders.Add(jobFolder);
            return folders;
        }

        var parentId = folder.Item!.Id;
        // Listings never load layouts: a big file's layout holds thousands of message-ids.
        var rows = await (from item in context.DavItems.AsNoTracking()
                          where item.ParentId == parentId
                          // A folder's children share its path as their prefix: in path order is in name order.
                          orderby item.Path
                          select new { item.Id, item.JobId, item.ParentId, item.Name, item.Path, item.IsDirectory, item.Size, item.Modified })
            .ToListAsync(cancellationToken);
        return [.. rows.Select(r => FromItem(
            Child(segments, r.Name),
            new DavItem { Id = r.Id, JobId = r.JobId, ParentId = r.ParentId, Name = r.Name, Path = r.Path, IsDirectory = r.IsDirectory, Size = r.Size, Modified = r.Modified },
            JobTime(r.Modified)))];
    }

    /// <summary>
    /// The job folders of <c>/content/&lt;folder&gt;/</c>, in name order, as they are read from the store:
    /// each with its name and time only (what a listing shows); resolving one gives its job too.
    /// </summary>
    private async IAsyncEnumerable<DavResource> StreamJobFoldersAsync(IReadOnlyList<string> segments, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        await foreach (var jobFolder in ReadJobFoldersAsync(context, segments, cancellationToken))
            yield return jobFolder;
    }

    /// <summary>A job folder as a listing shows it.</summary>
    internal readonly record struct JobFolderRow(string Name, DateTime Modified);

    /// <summary>
    /// What a listing of <c>/content/&lt;folder&gt;/</c> reads: each job folder's name and time, in name order.
    /// A category holds up to tens of thousands of job folders: only those columns are read (an id
    /// would be a string parsed on SQLite), from the folder index alone, which holds them in name
    /// order. Every top-level item is a job's folder (JobCompletion makes nothing else there).
    /// </summary>
    internal static IQueryable<JobFolderRow> JobFolderListing(IQueryable<DavItem> items, string folder) =>
        from item in JobFolders(items, folder)
        where item.IsDirectory
        orderby item.Path
        select new JobFolderRow(item.Name, item.Modified);

    private static async IAsyncEnumerable<DavResource> ReadJobFoldersAsync(
        NzbDavDbContext context, IReadOnlyList<string> segments, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await foreach (var r in JobFolderListing(context.DavItems.AsNoTracking(), segments[1]).AsAsyncEnumerable().WithCancellation(cancellationToken))
        {
            yield return new DavResource
            {
                Segments = Child(segments, r.Name),
                Kind = DavResourceKind.JobFolder,
                Modified = JobTime(r.Modified),
            };
        }
    }

    private static DavResource FromItem(IReadOnlyList<string> segments, DavItem item, DateTimeOffset modified)
    {
        if (!item.IsDirectory)
            return LibraryFile(segments, item, modified);
        return new DavResource
        {
            Segments = segments,
            Kind = item.ParentId is null ? DavResourceKind.JobFolder : DavResourceKind.ContentFolder,
            Modified = modified,
            Item = item,
            JobId = item.JobId,
        };
    }

    private async Task<DavResource?> ResolveIdAsync(IReadOnlyList<string> segments, CancellationToken cancellationToken)
    {
        if (segments.Count == 1)
            return Folder(segments);
        if (segments.Count != 2 || !Guid.TryParseExact(segments[1], "D", out var id) || segments[1] != id.ToString("D"))
            return null;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var found = await context.DavItems.AsNoTracking().FirstOrDefaultAsync(i => i.Id == id && !i.IsDirectory, cancellationToken);
        return found is null ? null : LibraryFile(segments, found, JobTime(found.Modified));
    }

    private async Task<IReadOnlyList<DavResource>> ListIdsAsync(CancellationToken cancellationToken)
    {
        var listed = new List<DavResource>();
        await foreach (var resource in StreamIdsAsync(cancellationToken))
            listed.Add(resource);
        return listed;
    }

    /// <summary>Every library file, read from the store as it is written out: a million of them are never in memory at once.</summary>
    private async IAsyncEnumerable<DavResource> StreamIdsAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var rows = (from item in context.DavItems.AsNoTracking()
                    where !item.IsDirectory
                    select new { item.Id, item.JobId, item.Name, item.Path, item.Size, item.Modified })
            .AsAsyncEnumerable();
        await foreach (var r in rows.WithCancellation(cancellationToken))
        {
            yield return LibraryFile(
                [Ids, r.Id.ToString("D")],
                new DavItem { Id = r.Id, JobId = r.JobId, Name = r.Name, Path = r.Path, Size = r.Size, Modified = r.Modified },
                JobTime(r.Modified));
        }
    }
}
