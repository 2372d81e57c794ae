using System.Globalization;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

// The library a test seeds: series, episodes, movies, their files, grabs, imports, queue items.
public sealed partial class FakeArrServer
{
    public int AddSeries(string title, string? path = null)
    {
        RequireKind(ArrKind.Sonarr);
        lock (_gate)
        {
            var id = _nextId++;
            _series[id] = new Series(id, title, path ?? "/tv/" + title);
            return id;
        }
    }

    public int AddEpisode(int seriesId, int season, int number, string? title = null)
    {
        RequireKind(ArrKind.Sonarr);
        lock (_gate)
        {
            var id = _nextId++;
            _episodes[id] = new Episode(id, _series[seriesId].Id, season, number, title ?? $"Episode {number}");
            return id;
        }
    }

    /// <summary>A file record of <paramref name="episodeIds"/> (several for a multi-episode file) at <c>series path/relativePath</c>.</summary>
    public int AddEpisodeFile(int seriesId, string relativePath, params int[] episodeIds)
    {
        RequireKind(ArrKind.Sonarr);
        lock (_gate)
        {
            var id = _nextId++;
            _files[id] = new MediaFile(id, seriesId, relativePath, _series[seriesId].Path + "/" + relativePath, [.. episodeIds]);
            foreach (var episode in episodeIds)
                _episodes[episode].FileId = id;
            return id;
        }
    }

    public int AddMovie(string title, int year, string? path = null)
    {
        RequireKind(ArrKind.Radarr);
        lock (_gate)
        {
            var id = _nextId++;
            _movies[id] = new Movie(id, title, year, path ?? $"/movies/{title} ({year})");
            return id;
        }
    }

    public int AddMovieFile(int movieId, string relativePath)
    {
        RequireKind(ArrKind.Radarr);
        lock (_gate)
        {
            var id = _nextId++;
            _files[id] = new MediaFile(id, movieId, relativePath, _movies[movieId].Path + "/" + relativePath, [movieId]);
            _movies[movieId].FileId = id;
            return id;
        }
    }

    /// <summary>The grab of a release: one <c>grabbed</c> record per episode (Sonarr) or one for the movie (Radarr), all with <paramref name="downloadId"/>.</summary>
    public IReadOnlyList<int> AddGrab(string downloadId, string sourceTitle, params int[] itemIds)
    {
        lock (_gate)
        {
            return [.. itemIds.Select(item => AddHistory("grabbed", downloadId, item, sourceTitle, new()
            {
                ["indexer"] = "Fake Indexer",
                ["releaseGroup"] = sourceTitle.Split('-')[^1],
                ["downloadClient"] = "SABnzbd",
                ["downloadClientName"] = "NzbDav",
                ["protocol"] = "1",
                ["size"] = "1073741824",
            }))];
        }
    }

    /// <summary>
    /// A <c>downloadFolderImported</c> record of one item: <paramref name="droppedPath"/> is the file
    /// as the Arr found it in the download folder, <paramref name="importedPath"/> where it went (the
    /// item's file record path when null), <paramref name="fileId"/> the file record it made (newer
    /// versions say it; null leaves it out, as older ones do).
    /// </summary>
    public int AddImport(string downloadId, int itemId, string droppedPath, string? importedPath = null, int? fileId = null, string? sourceTitle = null)
    {
        lock (_gate)
        {
            var fileRecord = FileIdOfLocked(itemId);
            var data = new Dictionary<string, string?>
            {
                ["droppedPath"] = droppedPath,
                ["importedPath"] = importedPath ?? (fileRecord != 0 ? _files[fileRecord].Path : null),
                ["downloadClient"] = "SABnzbd",
                ["downloadClientName"] = "NzbDav",
            };
            if (fileId is { } id)
                data["fileId"] = id.ToString(CultureInfo.InvariantCulture);
            return AddHistory("downloadFolderImported", downloadId, itemId, sourceTitle ?? Path.GetFileNameWithoutExtension(droppedPath), data);
        }
    }

    /// <summary>The download in the queue, one record per item as the real queue lists a season pack.</summary>
    public IReadOnlyList<int> AddQueueItem(string downloadId, string title, params int[] itemIds)
    {
        lock (_gate)
        {
            return [.. itemIds.Select(item =>
            {
                var id = _nextId++;
                _queue.Add(new QueueItem(id, downloadId, title, item, SeriesOf(item)));
                return id;
            })];
        }
    }

    /// <summary>
    /// A download grabbed and imported: Sonarr gets a series with one episode per file name
    /// (S01E01, S01E02, … in order), each with its own file record; Radarr one movie with the one
    /// file. Each import's <c>droppedPath</c> is <c>/mnt/nzbdav/completed/{category}/{release}/{file name}</c>
    /// and names the file record it made (<c>fileId</c>).
    /// </summary>
    public FakeArrDownload SeedImportedDownload(string downloadId, string releaseTitle, params string[] fileNames)
    {
        ArgumentOutOfRangeException.ThrowIfZero(fileNames.Length);
        var category = Kind is ArrKind.Sonarr ? "tv" : "movies";
        List<int> items = [], files = [];
        if (Kind is ArrKind.Sonarr)
        {
            var show = releaseTitle.Split('.')[0];
            var series = AddSeries(show);
            for (var i = 0; i < fileNames.Length; i++)
            {
                var episode = AddEpisode(series, 1, i + 1);
                items.Add(episode);
                files.Add(AddEpisodeFile(series, $"Season 01/{show} - S01E{i + 1:00}{Path.GetExtension(fileNames[i])}", episode));
            }
        }
        else
        {
            if (fileNames.Length != 1)
                throw new ArgumentException("A Radarr download imports one movie file.", nameof(fileNames));
            var title = releaseTitle.Split('.')[0];
            var movie = AddMovie(title, 2024);
            items.Add(movie);
            files.Add(AddMovieFile(movie, $"{title} (2024){Path.GetExtension(fileNames[0])}"));
        }

        var grabs = AddGrab(downloadId, releaseTitle, [.. items]);
        var imports = items.Select((item, i) =>
            AddImport(downloadId, item, $"/mnt/nzbdav/completed/{category}/{releaseTitle}/{fileNames[i]}", fileId: files[i], sourceTitle: releaseTitle)).ToList();
        return new FakeArrDownload(downloadId, items, files, grabs, imports);
    }

    /// <summary>
    /// Another release of an item that already had one, grabbed and imported (what the search a
    /// repair started ends in): a new file record for the item, the grab and the import naming it.
    /// Returns the new file record's id.
    /// </summary>
    public int SeedReplacement(string downloadId, string releaseTitle, int itemId, string fileName)
    {
        var category = Kind is ArrKind.Sonarr ? "tv" : "movies";
        int fileId;
        if (Kind is ArrKind.Sonarr)
        {
            int series;
            lock (_gate)
                series = _episodes[itemId].SeriesId;
            fileId = AddEpisodeFile(series, $"Season 01/{releaseTitle}{Path.GetExtension(fileName)}", itemId);
        }
        else
        {
            fileId = AddMovieFile(itemId, releaseTitle + Path.GetExtension(fileName));
        }

        AddGrab(downloadId, releaseTitle, itemId);
        AddImport(downloadId, itemId, $"/mnt/nzbdav/completed/{category}/{releaseTitle}/{fileName}", fileId: fileId, sourceTitle: releaseTitle);
        return fileId;
    }

    /// <summary>A download grabbed for <paramref name="itemCount"/> new episodes (or one movie) and still in the queue, nothing imported.</summary>
    public FakeArrDownload SeedQueuedDownload(string downloadId, string releaseTitle, int itemCount = 1)
    {
        List<int> items = [];
        if (Kind is ArrKind.Sonarr)
        {
            var series = AddSeries(releaseTitle.Split('.')[0]);
            for (var i = 0; i < itemCount; i++)
                items.Add(AddEpisode(series, 1, i + 1));
        }
        else
        {
            items.Add(AddMovie(releaseTitle.Split('.')[0], 2024));
        }

        var grabs = AddGrab(downloadId, releaseTitle, [.. items]);
        AddQueueItem(downloadId, releaseTitle, [.. items]);
        return new FakeArrDownload(downloadId, items, [.. items.Select(static _ => 0)], grabs, []);
    }
}
