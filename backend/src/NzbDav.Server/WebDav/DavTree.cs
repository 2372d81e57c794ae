using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Data.Entities;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebDav;

/// <summary>
/// The virtual tree: <c>/nzbs</c> (queue), <c>/content</c> (library items), <c>/completed</c> (*arr
/// import entries) and <c>/.ids</c> (every library file by id). Nodes are computed from the store
/// on each request; nothing is cached, so the tree never disagrees with the SAB API.
/// </summary>
public sealed partial class DavTree(
    IDbContextFactory<NzbDavDbContext> contextFactory,
    IOptionsMonitor<NzbDavOptions> options,
    IOptionsMonitor<WebDavOptions> davOptions,
    StrmLinks strmLinks,
    TimeProvider timeProvider)
{
    public const string Nzbs = "nzbs";
    public const string Content = "content";
    public const string Completed = "completed";
    public const string Ids = ".ids";

    /// <summary>Folder name of SABnzbd's "no category" under <c>/content</c>.</summary>
    public const string DefaultCategoryFolder = "default";

    private readonly DateTimeOffset _started = Truncate(timeProvider.GetUtcNow());

    /// <summary>The node at <paramref name="segments"/>, or null when there is none.</summary>
    /// <param name="baseUrl">Scheme and host that <c>.strm</c> files point at.</param>
    public async Task<DavResource?> ResolveAsync(IReadOnlyList<string> segments, string baseUrl, CancellationToken cancellationToken)
    {
        if (segments.Count == 0)
            return Folder(segments);
        return segments[0] switch
        {
            Nzbs => await ResolveNzbAsync(segments, cancellationToken),
            Content => await ResolveContentAsync(segments, cancellationToken),
            Completed => await ResolveCompletedAsync(segments, baseUrl, cancellationToken),
            Ids => await ResolveIdAsync(segments, cancellationToken),
            _ => null,
        };
    }

    /// <summary>The children of a collection, without file contents or layouts.</summary>
    public async Task<IReadOnlyList<DavResource>> ListAsync(DavResource folder, string baseUrl, CancellationToken cancellationToken)
    {
        var segments = folder.Segments;
        if (segments.Count == 0)
            return [Folder([Nzbs]), Folder([Content]), Folder([Completed]), Folder([Ids])];
        return segments[0] switch
        {
            Nzbs => await ListNzbsAsync(segments, cancellationToken),
            Content => await ListContentAsync(folder, cancellationToken),
            Completed => await ListCompletedAsync(segments, baseUrl, cancellationToken),
            Ids => await ListIdsAsync(cancellationToken),
            _ => [],
        };
    }

    /// <summary>
    /// The children of a collection one at a time, for a response written as they come: <c>/.ids</c>
    /// (every library file) and a category's job folders are streamed from the store, the other
    /// folders are listed first.
    /// </summary>
    public IAsyncEnumerable<DavResource> ChildrenAsync(DavResource folder, string baseUrl, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(folder);
        return folder.Segments switch
        {
            [Ids] => StreamIdsAsync(cancellationToken),
            [Content, _] => StreamJobFoldersAsync(folder.Segments, cancellationToken),
            _ => ListedAsync(folder, baseUrl, cancellationToken),
        };
    }

    private async IAsyncEnumerable<DavResource> ListedAsync(DavResource folder, string baseUrl, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        foreach (var child in await ListAsync(folder, baseUrl, cancellationToken))
            yield return child;
    }

    private IReadOnlyList<string> Categories => options.CurrentValue.EffectiveCategories;

    private DavResource Folder(IReadOnlyList<string> segments) =>
        new() { Segments = segments, Kind = DavResourceKind.Folder, Modified = _started };

    private static DavResource VirtualFile(IReadOnlyList<string> segments, byte[] content, DateTimeOffset modified) => new()
    {
        Segments = segments,
        Kind = DavResourceKind.VirtualFile,
        Length = content.Length,
        Modified = modified,
        Content = content,
        ETag = "\"v" + Convert.ToHexStringLower(SHA256.HashData(content), 0, 12) + "\"",
    };

    private static DavResource LibraryFile(IReadOnlyList<string> segments, DavItem item, DateTimeOffset modified) => new()
    {
        Segments = segments,
        Kind = DavResourceKind.LibraryFile,
        Length = item.Size,
        Modified = modified,
        Item = item,
        JobId = item.JobId,
        ETag = StrongETag(item.Id, item.Size),
    };

    /// <summary>Stable for the life of the item: its id and size never change.</summary>
    internal static string StrongETag(Guid id, long size) => "\"" + id.ToString("N") + "-" + size.ToString("x") + "\"";

    private static IReadOnlyList<string> Child(IReadOnlyList<string> parent, string name) => [.. parent, name];

    /// <summary>HTTP dates carry whole seconds; truncating keeps If-Range date comparison exact.</summary>
    internal static DateTimeOffset Truncate(DateTimeOffset value) =>
        new(value.Ticks - value.Ticks % TimeSpan.TicksPerSecond, value.Offset);

    /// <summary>The time WebDAV gives a library item (its <see cref="DavItem.Modified"/>, its job's completion) or a queued NZB (its job's addition).</summary>
    private static DateTimeOffset JobTime(DateTime time) => Truncate(new DateTimeOffset(DateTime.SpecifyKind(time, DateTimeKind.Utc)));
}
