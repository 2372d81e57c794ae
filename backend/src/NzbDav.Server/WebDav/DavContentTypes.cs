using System.Collections.Frozen;

namespace NzbDav.Server.WebDav;

/// <summary>Content types by file extension for <c>getcontenttype</c> and GET.</summary>
public static class DavContentTypes
{
    public const string Default = "application/octet-stream";

    private static readonly FrozenDictionary<string, string> ByExtension = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
    {
        [".mkv"] = "video/x-matroska",
        [".mp4"] = "video/mp4",
        [".m4v"] = "video/x-m4v",
        [".avi"] = "video/x-msvideo",
        [".ts"] = "video/mp2t",
        [".srt"] = "application/x-subrip",
        [".nfo"] = "text/plain",
        [".txt"] = "text/plain",
        [".nzb"] = "application/x-nzb",
        [".strm"] = "text/plain",
    }.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);

    public static string For(string fileName) =>
        ByExtension.TryGetValue(Path.GetExtension(fileName), out var type) ? type : Default;
}
