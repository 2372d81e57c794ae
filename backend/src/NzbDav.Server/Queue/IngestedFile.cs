using NzbDav.Data.Layout;

namespace NzbDav.Server.Queue;

/// <summary>
/// A file or folder found by ingestion: its path inside the job folder ('/'-separated for files
/// inside archive folders) and, for files, its layout.
/// </summary>
public sealed record IngestedFile(string Name, DavFileLayout? Layout)
{
    /// <summary>A folder (from an archive); it has no layout.</summary>
    public bool IsDirectory => Layout is null;

    /// <summary>What the import check learned (null: not checked; the first scheduled check comes soon).</summary>
    public Health.ImportHealth? Health { get; init; }

    /// <summary>A folder at <paramref name="path"/>.</summary>
    public static IngestedFile Directory(string path) => new(path, null);
}
