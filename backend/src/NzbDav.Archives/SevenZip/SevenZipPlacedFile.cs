namespace NzbDav.Archives.SevenZip;

/// <summary>A file matched to its data: folder and sub-stream index (-1 for no data) and its offset in the folder's output.</summary>
internal sealed record SevenZipPlacedFile(SevenZipFile File, string Path, int Folder, int SubStream, long OffsetInFolder, long Size);
