using Microsoft.AspNetCore.StaticFiles;
using Microsoft.Extensions.FileProviders;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The built web UI on disk: <c>index.html</c> plus content-hashed files under <c>assets/</c>. Read
/// through a <see cref="PhysicalFileProvider"/>, which refuses paths that leave the folder, and never
/// watched (the files change only with a new build).
/// </summary>
public sealed class WebUiFiles : IDisposable
{
    public const string IndexFile = "index.html";

    private readonly PhysicalFileProvider? _files;
    private readonly FileExtensionContentTypeProvider _types = new();

    public WebUiFiles(string directory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        Directory = Path.GetFullPath(directory);
        if (System.IO.Directory.Exists(Directory))
            _files = new PhysicalFileProvider(Directory);
    }

    /// <summary>The folder the UI is served from.</summary>
    public string Directory { get; }

    /// <summary>True when the folder holds a built UI.</summary>
    public bool IsBuilt => Find(IndexFile) is not null;

    /// <summary>The file at <paramref name="relativePath"/> below the folder, or null when there is none (or the path leaves the folder).</summary>
    public IFileInfo? Find(string relativePath)
    {
        if (_files is null || relativePath.Length == 0 || relativePath.Contains('\\', StringComparison.Ordinal))
            return null;
        var file = _files.GetFileInfo(relativePath);
        return file.Exists && !file.IsDirectory && file.PhysicalPath is not null ? file : null;
    }

    /// <summary>The Content-Type for a file name; <c>application/octet-stream</c> for what is not known.</summary>
    public string ContentTypeOf(string fileName) =>
        _types.TryGetContentType(fileName, out var type) ? type : "application/octet-stream";

    public void Dispose() => _files?.Dispose();
}
