namespace NzbDav.Data.Entities;

/// <summary>A node of a job's virtual tree: a directory, or a file described by <see cref="Layout"/>.</summary>
public sealed class DavItem
{
    public Guid Id { get; set; }

    public Guid JobId { get; set; }

    /// <summary>The containing directory's item, or null for the job's root entries.</summary>
    public Guid? ParentId { get; set; }

    public required string Name { get; set; }

    /// <summary>Full virtual path (<c>/content/&lt;category&gt;/&lt;job&gt;/&lt;name&gt;</c>); unique.</summary>
    public required string Path { get; set; }

    public bool IsDirectory { get; set; }

    /// <summary>Decoded size in bytes (0 for directories).</summary>
    public long Size { get; set; }

    /// <summary>
    /// When the job's tree was made (its completion, UTC): the time WebDAV gives the item. Kept on the
    /// item so that a listing reads its folder's rows alone, not also a job row for each of them.
    /// </summary>
    public DateTime Modified { get; set; }

    /// <summary>Encoded <see cref="Layout.DavFileLayout"/> for files; null for directories.</summary>
    public byte[]? Layout { get; set; }
}
