namespace NzbDav.Server.Configuration;

/// <summary>How the WebDAV layer presents a completed job's files to *arr under <c>/completed</c>.</summary>
public enum CompletedEntryKind
{
    Symlink,
    Strm,
}
