namespace NzbDav.Archives.SevenZip;

/// <summary>One FilesInfo item before it is matched to a sub-stream.</summary>
internal sealed record SevenZipFile(string Name, bool HasStream, bool IsDirectory, bool IsAnti, DateTimeOffset? Modified);
