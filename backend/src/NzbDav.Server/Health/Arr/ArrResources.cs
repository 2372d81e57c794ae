namespace NzbDav.Server.Health.Arr;

// The parts of the Sonarr/Radarr v3 API resources the repair reads. JSON is camelCase; fields a
// version lacks stay at their defaults, so one record serves every version that has the endpoint.

/// <summary><c>GET /api/v3/system/status</c>.</summary>
public sealed record ArrSystemStatus(string? AppName, string? InstanceName, string? Version, string? UrlBase);

/// <summary>The paging envelope of <c>history</c> and <c>queue</c>.</summary>
public sealed record ArrPage<T>(int Page, int PageSize, int TotalRecords, IReadOnlyList<T>? Records);

/// <summary>
/// One history record. <see cref="EventType"/> is the camelCase enum name: <c>grabbed</c>,
/// <c>downloadFolderImported</c>, <c>downloadFailed</c>, <c>episodeFileDeleted</c>/<c>movieFileDeleted</c>…
/// Sonarr's name an episode and series, Radarr's a movie. <see cref="Data"/> of an import holds
/// <c>droppedPath</c> (the file in the download folder), <c>importedPath</c> and, in newer versions, <c>fileId</c>.
/// </summary>
public sealed record ArrHistoryRecord(
    int Id, string? EventType, string? DownloadId, int EpisodeId, int SeriesId, int MovieId, string? SourceTitle, IReadOnlyDictionary<string, string?>? Data)
{
    public const string Grabbed = "grabbed";
    public const string DownloadFolderImported = "downloadFolderImported";
    public const string DownloadFailed = "downloadFailed";

    public bool Is(string eventType) => string.Equals(EventType, eventType, StringComparison.OrdinalIgnoreCase);

    /// <summary>A <see cref="Data"/> value by key, whatever the case of the key (older versions wrote PascalCase).</summary>
    public string? DataValue(string key) =>
        Data?.FirstOrDefault(pair => string.Equals(pair.Key, key, StringComparison.OrdinalIgnoreCase)).Value;
}

/// <summary>A file record as <c>episode/{id}</c> and <c>movie/{id}</c> embed it.</summary>
public sealed record ArrMediaFile(int Id, string? Path, string? RelativePath);

/// <summary><c>GET /api/v3/episode/{id}</c> (Sonarr): <see cref="EpisodeFileId"/> is 0 when it has no file.</summary>
public sealed record ArrEpisode(int Id, int SeriesId, int EpisodeFileId, int SeasonNumber, int EpisodeNumber, string? Title, bool HasFile, ArrMediaFile? EpisodeFile)
{
    public int FileId => EpisodeFileId != 0 ? EpisodeFileId : EpisodeFile?.Id ?? 0;

    public string Label => $"S{SeasonNumber:00}E{EpisodeNumber:00}";
}

/// <summary><c>GET /api/v3/movie/{id}</c> (Radarr): the file is <see cref="MovieFile"/> (newer versions also give <see cref="MovieFileId"/>).</summary>
public sealed record ArrMovie(int Id, string? Title, int Year, bool HasFile, int? MovieFileId, ArrMediaFile? MovieFile)
{
    public int FileId => MovieFile?.Id ?? MovieFileId ?? 0;

    public string Label => Year > 0 ? $"{Title} ({Year})" : Title ?? $"movie {Id}";
}

/// <summary>One record of <c>GET /api/v3/queue</c>; a season pack has one per episode, all with the same download ID.</summary>
public sealed record ArrQueueRecord(int Id, string? DownloadId, string? Title, int? EpisodeId, int? SeriesId, int? MovieId, string? Status);

/// <summary>What <c>POST /api/v3/command</c> answers (201): the queued command.</summary>
public sealed record ArrCommandAccepted(int Id, string? Name, string? Status);

/// <summary>
/// <c>GET /api/v3/config/downloadclient</c>: <see cref="AutoRedownloadFailed"/> is "Redownload Failed"
/// (on by default): a download marked failed makes the Arr search for its episodes or movie itself.
/// </summary>
public sealed record ArrDownloadClientConfig(bool AutoRedownloadFailed);
