namespace NzbDav.Server.WebDav;

/// <summary>What a node of the virtual tree is, which decides what PUT and DELETE may do with it.</summary>
public enum DavResourceKind
{
    /// <summary>A fixed folder (<c>/</c>, <c>/nzbs</c>, a category folder…).</summary>
    Folder,

    /// <summary>A queued job's NZB under <c>/nzbs</c>; DELETE removes the job.</summary>
    QueuedNzb,

    /// <summary>A job's top folder under <c>/content/&lt;category&gt;</c>; DELETE removes the job.</summary>
    JobFolder,

    /// <summary>A folder inside a job's content tree.</summary>
    ContentFolder,

    /// <summary>A library file streamed through <see cref="IDavFileOpener"/>.</summary>
    LibraryFile,

    /// <summary>A small generated file (<c>.strm</c>, <c>.rclonelink</c>) served from memory.</summary>
    VirtualFile,
}
