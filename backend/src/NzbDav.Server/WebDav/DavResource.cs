using NzbDav.Data.Entities;

namespace NzbDav.Server.WebDav;

/// <summary>One node of the virtual tree as PROPFIND and GET see it.</summary>
public sealed record DavResource
{
    /// <summary>Decoded path segments from the root; empty for <c>/</c>.</summary>
    public required IReadOnlyList<string> Segments { get; init; }

    public required DavResourceKind Kind { get; init; }

    public bool IsCollection => Kind is DavResourceKind.Folder or DavResourceKind.JobFolder or DavResourceKind.ContentFolder;

    /// <summary>Bytes of a file; 0 for collections.</summary>
    public long Length { get; init; }

    public DateTimeOffset Modified { get; init; }

    /// <summary>Strong entity tag with quotes, or null for collections.</summary>
    public string? ETag { get; init; }

    /// <summary>The library file behind a <see cref="DavResourceKind.LibraryFile"/>.</summary>
    public DavItem? Item { get; init; }

    /// <summary>The bytes of a <see cref="DavResourceKind.VirtualFile"/> or <see cref="DavResourceKind.QueuedNzb"/>.</summary>
    public byte[]? Content { get; init; }

    /// <summary>The job a queued NZB or job folder belongs to.</summary>
    public Guid? JobId { get; init; }

    public string Name => Segments.Count == 0 ? "" : Segments[^1];

    /// <summary>The URL path: every segment percent-encoded, collections ending in <c>/</c>.</summary>
    public string Href
    {
        get
        {
            if (Segments.Count == 0)
                return "/";
            var path = "/" + string.Join('/', Segments.Select(Uri.EscapeDataString));
            return IsCollection ? path + "/" : path;
        }
    }
}
