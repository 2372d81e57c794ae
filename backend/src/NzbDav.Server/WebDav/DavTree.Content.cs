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
        // Jobs of a category that was since removed from the configuration stay reachable.
        var stored = await context.Jobs.Select(j => j.Category).Distinct().ToListAsync(cancellationToken);
        return [.. new[] { DefaultCategoryFolder }.Concat(Categories).Concat(stored.Select(CategoryFolder)).Distinct(StringComparer.Ordinal)];
    }

    private async Task<DavResource?> ResolveContentAsync(IReadOnlyList<string> segments, CancellationToken cancellationToken)
    {
        if (segments.Count == 1)
            return Folder(segments);
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (segments.Count == 2)
        {
            var categories = await ContentCategoriesAsync(context, cancellationToken);
            return categories.Contains(segments[1], StringComparer.Ordinal) ? Folder(segments) : null;
        }

        var path = "/" + string.Join('/', segments);
        var found = await (from item in context.DavItems.AsNoTracking()
                           join job in context.Jobs on item.JobId equals job.Id
                           where item.Path == path
                           select new { item, job.CompletedAt, job.AddedAt }).FirstOrDefaultAsync(cancellationToken);
        return found is null ? null : FromItem(segments, found.item, JobTime(found.CompletedAt, found.AddedAt));
    }

    private async Task<IReadOnlyList<DavResource>> ListContentAsync(DavResource folder, CancellationToken cancellationToken)
    {
        var segments = folder.Segments;
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        if (segments.Count == 1)
            return [.. (await ContentCategoriesAsync(context, cancellationToken)).Select(c => Folder(Child(segments, c)))];

        var items = context.DavItems.AsNoTracking();
        if (segments.Count == 2)
        {
            var prefix = "/" + Content + "/" + segments[1] + "/";
            items = items.Where(i => i.ParentId == null && i.Path.StartsWith(prefix));
        }
        else
        {
            var parentId = folder.Item!.Id;
            items = items.Where(i => i.ParentId == parentId);
        }

        // Listings never load layouts: a big file's layout holds thousands of message-ids.
        var rows = await (from item in items
                          join job in context.Jobs on item.JobId equals job.Id
                          orderby item.Name
                          select new { item.Id, item.JobId, item.ParentId, item.Name, item.Path, item.IsDirectory, item.Size, job.CompletedAt, job.AddedAt })
            .ToListAsync(cancellationToken);
        return [.. rows.Select(r => FromItem(
            Child(segments, r.Name),
            new DavItem { Id = r.Id, JobId = r.JobId, ParentId = r.ParentId, Name = r.Name, Path = r.Path, IsDirectory = r.IsDirectory, Size = r.Size },
            JobTime(r.CompletedAt, r.AddedAt)))];
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
        var found = await (from item in context.DavItems.AsNoTracking()
                           join job in context.Jobs on item.JobId equals job.Id
                           where item.Id == id && !item.IsDirectory
                           select new { item, job.CompletedAt, job.AddedAt }).FirstOrDefaultAsync(cancellationToken);
        return found is null ? null : LibraryFile(segments, found.item, JobTime(found.CompletedAt, found.AddedAt));
    }

    private async Task<IReadOnlyList<DavResource>> ListIdsAsync(CancellationToken cancellationToken)
    {
        await using var context = await contextFactory.CreateDbContextAsync(cancellationToken);
        var rows = await (from item in context.DavItems.AsNoTracking()
                          join job in context.Jobs on item.JobId equals job.Id
                          where !item.IsDirectory
                          select new { item.Id, item.JobId, item.Name, item.Path, item.Size, job.CompletedAt, job.AddedAt })
            .ToListAsync(cancellationToken);
        return [.. rows.Select(r => LibraryFile(
            [Ids, r.Id.ToString("D")],
            new DavItem { Id = r.Id, JobId = r.JobId, Name = r.Name, Path = r.Path, Size = r.Size },
            JobTime(r.CompletedAt, r.AddedAt)))];
    }
}
