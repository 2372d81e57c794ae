using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Http;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

// The v3 API as the real servers answer it, over the seeded library, every call recorded.
public sealed partial class FakeArrServer
{
    private async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var full = request.Path.Value ?? "/";
        var path = full;
        if (_urlBase.Length > 0)
            path = full.StartsWith(_urlBase + "/", StringComparison.OrdinalIgnoreCase) ? full[_urlBase.Length..] : "";
        var pathAndQuery = path + request.QueryString.Value;
        var method = request.Method;
        TimeSpan delay;
        int? failure;
        lock (_gate)
        {
            delay = _delays.Where(d => path.StartsWith(d.Prefix, StringComparison.OrdinalIgnoreCase)).Select(static d => d.Delay).DefaultIfEmpty().Max();
            failure = _failures.Where(f => f.Method == method && path.StartsWith(f.Prefix, StringComparison.OrdinalIgnoreCase)).Select(static f => (int?)f.Status).FirstOrDefault();
        }

        if (delay > TimeSpan.Zero)
        {
            try
            {
                await Task.Delay(delay, context.RequestAborted);
            }
            catch (OperationCanceledException)
            {
                Record(method, pathAndQuery, 0);
                return;
            }
        }

        var (status, body) = failure is { } injected
            ? (injected, new JsonObject { ["message"] = "Injected failure", ["description"] = "System.Exception: injected by the test" })
            : Answer(request, method, path, await ReadBodyAsync(request));
        Record(method, pathAndQuery, status);
        context.Response.StatusCode = status;
        if (status == StatusCodes.Status201Created && body?["id"] is { } created)
            context.Response.Headers.Location = $"{_urlBase}/api/v3/command/{created}";
        if (body is not null)
        {
            context.Response.ContentType = "application/json; charset=utf-8";
            await context.Response.WriteAsync(body.ToJsonString(Json), context.RequestAborted);
        }
    }

    private (int Status, JsonNode? Body) Answer(HttpRequest request, string method, string path, string requestBody)
    {
        if (!path.StartsWith("/api/", StringComparison.OrdinalIgnoreCase))
            return (404, null);
        var key = request.Headers["X-Api-Key"].FirstOrDefault() ?? request.Query["apikey"].FirstOrDefault();
        if (key != ApiKey)
            return (401, null);
        if (!path.StartsWith("/api/v3/", StringComparison.OrdinalIgnoreCase))
            return (404, null);

        var segments = path["/api/v3/".Length..].TrimEnd('/').ToLowerInvariant().Split('/');
        var id = segments.Length > 1 && int.TryParse(segments[^1], NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) ? parsed : (int?)null;
        lock (_gate)
        {
            return (method, segments[0], segments.Length, Kind) switch
            {
                ("GET", "system", 2, _) when segments[1] == "status" => (200, Status()),
                ("GET", "history", 1, _) => (200, HistoryPage(request.Query)),
                ("GET", "config", 2, _) when segments[1] == "downloadclient" => (200, DownloadClientConfig()),
                ("POST", "history", 3, _) when segments[1] == "failed" && id is { } h => MarkFailed(h),
                ("GET", "episode", 2, ArrKind.Sonarr) when id is { } e => _episodes.TryGetValue(e, out var episode) ? (200, EpisodeJson(episode)) : NotFound(),
                ("DELETE", "episodefile", 2, ArrKind.Sonarr) when id is { } f => DeleteFile(f),
                ("GET", "movie", 2, ArrKind.Radarr) when id is { } m => _movies.TryGetValue(m, out var movie) ? (200, MovieJson(movie)) : NotFound(),
                ("DELETE", "moviefile", 2, ArrKind.Radarr) when id is { } f => DeleteFile(f),
                ("GET", "queue", 1, _) => (200, QueuePage(request.Query)),
                ("DELETE", "queue", 2, _) when id is { } q => RemoveFromQueue(q, request.Query),
                ("POST", "command", 1, _) => Command(requestBody),
                _ => (404, null),
            };
        }
    }

    private JsonObject Status() => new()
    {
        ["appName"] = AppName,
        ["instanceName"] = AppName,
        ["version"] = Version,
        ["buildTime"] = "2026-10-01T00:00:00Z",
        ["isDebug"] = false,
        ["isProduction"] = true,
        ["isAdmin"] = false,
        ["isUserInteractive"] = false,
        ["startupPath"] = "/app/bin",
        ["appData"] = "/config",
        ["osName"] = "ubuntu",
        ["osVersion"] = "24.04",
        ["isNetCore"] = true,
        ["isLinux"] = true,
        ["isOsx"] = false,
        ["isWindows"] = false,
        ["isDocker"] = true,
        ["mode"] = "console",
        ["branch"] = "main",
        ["authentication"] = "forms",
        ["databaseType"] = "sqLite",
        ["urlBase"] = _urlBase,
        ["runtimeVersion"] = "8.0.12",
        ["runtimeName"] = ".NET",
        ["startTime"] = "2026-11-01T00:00:00Z",
        ["packageUpdateMechanism"] = "docker",
    };

    private JsonObject HistoryPage(IQueryCollection query)
    {
        IEnumerable<HistoryRecord> records = _history;
        if (query["downloadId"].FirstOrDefault() is { Length: > 0 } downloadId)
            records = records.Where(h => h.DownloadId == downloadId);
        var eventTypes = query["eventType"].Select(e => int.Parse(e!, CultureInfo.InvariantCulture)).ToHashSet();
        if (eventTypes.Count > 0)
            records = records.Where(h => eventTypes.Contains(EventNumber(h.EventType)));
        // Newest first: the real default sort is date, descending.
        return Page(query, records.OrderByDescending(static h => h.Date).ThenByDescending(static h => h.Id).Select(HistoryJson).ToList(), "date", "descending");
    }

    private JsonObject QueuePage(IQueryCollection query) =>
        Page(query, _queue.Select(QueueJson).ToList(), "timeleft", "ascending");

    private static JsonObject Page(IQueryCollection query, List<JsonObject> all, string sortKey, string sortDirection)
    {
        var page = int.TryParse(query["page"].FirstOrDefault(), NumberStyles.None, CultureInfo.InvariantCulture, out var p) ? p : 1;
        var pageSize = int.TryParse(query["pageSize"].FirstOrDefault(), NumberStyles.None, CultureInfo.InvariantCulture, out var s) ? s : 10;
        return new JsonObject
        {
            ["page"] = page,
            ["pageSize"] = pageSize,
            ["sortKey"] = sortKey,
            ["sortDirection"] = sortDirection,
            ["totalRecords"] = all.Count,
            ["records"] = new JsonArray([.. all.Skip((page - 1) * pageSize).Take(pageSize)]),
        };
    }

    private (int, JsonNode?) MarkFailed(int historyId)
    {
        var record = _history.FirstOrDefault(h => h.Id == historyId);
        if (record is null)
            return NotFound();
        var grabbed = record.DownloadId is null ? [record] : _history.Where(h => h.DownloadId == record.DownloadId && h.EventType == "grabbed").ToList();
        Fail(grabbed, "Manually marked as failed");
        return (200, new JsonObject());
    }

    private void Fail(List<HistoryRecord> grabbed, string message, bool skipRedownload = false)
    {
        if (grabbed.Count == 0)
            return;
        foreach (var grab in grabbed)
        {
            AddHistory("downloadFailed", grab.DownloadId, grab.ItemId, grab.SourceTitle, new()
            {
                ["downloadClient"] = "SABnzbd",
                ["downloadClientName"] = "NzbDav",
                ["message"] = message,
            });
        }

        _blocklist.Add(new FakeArrBlocklistEntry(_nextId++, grabbed[0].DownloadId, grabbed[0].SourceTitle, [.. grabbed.Select(static g => g.ItemId)]));
        if (AutoRedownloadFailed && !skipRedownload)
        {
            var ids = grabbed.Select(static g => g.ItemId).Distinct().Order().ToList();
            _autoSearches.Add(new FakeArrAutoSearch(ids, [.. ids.Where(HasFileNow)]));
        }
    }

    private bool HasFileNow(int itemId) =>
        Kind is ArrKind.Sonarr ? _episodes.TryGetValue(itemId, out var e) && e.FileId != 0 : _movies.TryGetValue(itemId, out var m) && m.FileId != 0;

    private JsonObject DownloadClientConfig() => Kind is ArrKind.Sonarr
        ? new()
        {
            ["downloadClientWorkingFolders"] = "_UNPACK_|_FAILED_",
            ["enableCompletedDownloadHandling"] = true,
            ["autoRedownloadFailed"] = AutoRedownloadFailed,
            ["autoRedownloadFailedFromInteractiveSearch"] = true,
            ["id"] = 1,
        }
        : new()
        {
            ["downloadClientWorkingFolders"] = "_UNPACK_|_FAILED_",
            ["enableCompletedDownloadHandling"] = true,
            ["checkForFinishedDownloadInterval"] = 1,
            ["autoRedownloadFailed"] = AutoRedownloadFailed,
            ["autoRedownloadFailedFromInteractiveSearch"] = true,
            ["id"] = 1,
        };

    private (int, JsonNode?) DeleteFile(int fileId)
    {
        if (!_files.Remove(fileId, out var file))
            return NotFound();
        foreach (var item in file.ItemIds)
        {
            if (Kind is ArrKind.Sonarr)
                _episodes[item].FileId = 0;
            else
                _movies[item].FileId = 0;
            AddHistory(Kind is ArrKind.Sonarr ? "episodeFileDeleted" : "movieFileDeleted", null, item, file.Path, new() { ["reason"] = "Manual" });
        }

        return (200, null);
    }

    private (int, JsonNode?) RemoveFromQueue(int queueId, IQueryCollection query)
    {
        var item = _queue.FirstOrDefault(q => q.Id == queueId);
        if (item is null)
            return NotFound();
        var removeFromClient = !bool.TryParse(query["removeFromClient"].FirstOrDefault(), out var remove) || remove;
        var blocklist = bool.TryParse(query["blocklist"].FirstOrDefault(), out var block) && block;
        _queueRemovals.Add(new FakeArrQueueRemoval(queueId, item.DownloadId, removeFromClient, blocklist));
        var skipRedownload = bool.TryParse(query["skipRedownload"].FirstOrDefault(), out var skip) && skip;
        if (blocklist)
            Fail([.. _history.Where(h => h.DownloadId == item.DownloadId && h.EventType == "grabbed")], "Manually marked as failed", skipRedownload);
        _queue.RemoveAll(q => q.DownloadId == item.DownloadId);
        return (200, null);
    }

    private (int, JsonNode?) Command(string requestBody)
    {
        JsonObject body;
        try
        {
            body = JsonNode.Parse(requestBody)?.AsObject() ?? [];
        }
        catch (JsonException)
        {
            return (400, new JsonObject { ["message"] = "Invalid request body" });
        }

        var name = body["name"]?.GetValue<string>() ?? "";
        var (known, idsField) = Kind is ArrKind.Sonarr ? ("EpisodeSearch", "episodeIds") : ("MoviesSearch", "movieIds");
        if (!name.Equals(known, StringComparison.OrdinalIgnoreCase))
            return (500, new JsonObject { ["message"] = "Sequence contains no matching element" });
        var ids = body[idsField]?.AsArray().Select(static n => n!.GetValue<int>()).ToList() ?? [];
        var id = _nextId++;
        _commands.Add(new FakeArrCommand(id, known, ids));
        var echoed = new JsonObject
        {
            [idsField] = new JsonArray([.. ids.Select(static i => (JsonNode)i)]),
            ["sendUpdatesToClient"] = true,
            ["updateScheduledTask"] = true,
            ["completionMessage"] = "Completed",
            ["requiresDiskAccess"] = false,
            ["isExclusive"] = false,
            ["isLongRunning"] = false,
            ["name"] = known,
            ["trigger"] = "manual",
            ["suppressMessages"] = false,
        };
        return (201, new JsonObject
        {
            ["name"] = known,
            ["commandName"] = Kind is ArrKind.Sonarr ? "Episode Search" : "Movies Search",
            ["body"] = echoed,
            ["priority"] = "normal",
            ["status"] = "queued",
            ["result"] = "unknown",
            ["queued"] = Stamp(Epoch.AddHours(1)),
            ["trigger"] = "manual",
            ["sendUpdatesToClient"] = true,
            ["updateScheduledTask"] = true,
            ["id"] = id,
        });
    }

    private JsonObject HistoryJson(HistoryRecord record)
    {
        var json = new JsonObject();
        if (Kind is ArrKind.Sonarr)
        {
            json["episodeId"] = record.ItemId;
            json["seriesId"] = SeriesOf(record.ItemId) ?? 0;
        }
        else
        {
            json["movieId"] = record.ItemId;
        }

        json["sourceTitle"] = record.SourceTitle;
        json["languages"] = new JsonArray(new JsonObject { ["id"] = 1, ["name"] = "English" });
        json["quality"] = Quality();
        json["customFormats"] = new JsonArray();
        json["customFormatScore"] = 0;
        json["qualityCutoffNotMet"] = false;
        json["date"] = Stamp(record.Date);
        if (record.DownloadId is not null)
            json["downloadId"] = record.DownloadId;
        json["eventType"] = record.EventType;
        json["data"] = new JsonObject([.. record.Data.Where(static d => d.Value is not null).Select(static d => KeyValuePair.Create(d.Key, (JsonNode?)d.Value))]);
        json["id"] = record.Id;
        return json;
    }

    private JsonObject EpisodeJson(Episode episode)
    {
        var json = new JsonObject
        {
            ["seriesId"] = episode.SeriesId,
            ["tvdbId"] = 1000 + episode.Id,
            ["episodeFileId"] = episode.FileId,
            ["seasonNumber"] = episode.Season,
            ["episodeNumber"] = episode.Number,
            ["title"] = episode.Title,
            ["airDate"] = "2024-01-01",
            ["airDateUtc"] = "2024-01-01T02:00:00Z",
            ["runtime"] = 45,
            ["overview"] = "",
            ["hasFile"] = episode.FileId != 0,
            ["monitored"] = true,
            ["unverifiedSceneNumbering"] = false,
            ["id"] = episode.Id,
        };
        if (episode.FileId != 0 && _files.TryGetValue(episode.FileId, out var file))
        {
            json["episodeFile"] = FileJson(file, 1073741824L, ("seriesId", episode.SeriesId), ("seasonNumber", episode.Season));
        }

        return json;
    }

    private JsonObject MovieJson(Movie movie)
    {
        var json = new JsonObject
        {
            ["title"] = movie.Title,
            ["originalTitle"] = movie.Title,
            ["sortTitle"] = movie.Title.ToLowerInvariant(),
            ["sizeOnDisk"] = movie.FileId != 0 ? 4294967296L : 0L,
            ["status"] = "released",
            ["year"] = movie.Year,
            ["hasFile"] = movie.FileId != 0,
            ["movieFileId"] = movie.FileId,
            ["path"] = movie.Path,
            ["qualityProfileId"] = 1,
            ["monitored"] = true,
            ["minimumAvailability"] = "released",
            ["isAvailable"] = true,
            ["tmdbId"] = 2000 + movie.Id,
            ["added"] = Stamp(Epoch),
            ["id"] = movie.Id,
        };
        if (movie.FileId != 0 && _files.TryGetValue(movie.FileId, out var file))
        {
            json["movieFile"] = FileJson(file, 4294967296L, ("movieId", movie.Id), ("edition", ""));
        }

        return json;
    }

    /// <summary>An episode file or movie file record: the owner's own fields, then those both share.</summary>
    private static JsonObject FileJson(MediaFile file, long size, params (string Name, JsonNode? Value)[] owner)
    {
        var json = new JsonObject();
        foreach (var (name, value) in owner)
            json[name] = value;
        json["relativePath"] = file.RelativePath;
        json["path"] = file.Path;
        json["size"] = size;
        json["dateAdded"] = Stamp(Epoch);
        json["releaseGroup"] = "GRP";
        json["languages"] = new JsonArray(new JsonObject { ["id"] = 1, ["name"] = "English" });
        json["quality"] = Quality();
        json["customFormats"] = new JsonArray();
        json["customFormatScore"] = 0;
        json["qualityCutoffNotMet"] = false;
        json["id"] = file.Id;
        return json;
    }

    private JsonObject QueueJson(QueueItem item)
    {
        var json = new JsonObject();
        if (Kind is ArrKind.Sonarr)
        {
            json["seriesId"] = item.SeriesId;
            json["episodeId"] = item.ItemId;
            json["seasonNumber"] = _episodes[item.ItemId].Season;
        }
        else
        {
            json["movieId"] = item.ItemId;
        }

        json["languages"] = new JsonArray(new JsonObject { ["id"] = 1, ["name"] = "English" });
        json["quality"] = Quality();
        json["customFormats"] = new JsonArray();
        json["customFormatScore"] = 0;
        json["size"] = 1073741824L;
        json["title"] = item.Title;
        json["sizeleft"] = 0;
        json["timeleft"] = "00:00:00";
        json["added"] = Stamp(Epoch);
        json["status"] = "completed";
        json["trackedDownloadStatus"] = "ok";
        json["trackedDownloadState"] = "importPending";
        json["statusMessages"] = new JsonArray();
        json["downloadId"] = item.DownloadId;
        json["protocol"] = "usenet";
        json["downloadClient"] = "NzbDav";
        json["downloadClientHasPostImportCategory"] = false;
        json["indexer"] = "Fake Indexer";
        json["outputPath"] = $"/mnt/nzbdav/completed/{(Kind is ArrKind.Sonarr ? "tv" : "movies")}/{item.Title}";
        json["id"] = item.Id;
        return json;
    }

    private static JsonObject Quality() => new()
    {
        ["quality"] = new JsonObject { ["id"] = 3, ["name"] = "WEBDL-1080p", ["source"] = "web", ["resolution"] = 1080 },
        ["revision"] = new JsonObject { ["version"] = 1, ["real"] = 0, ["isRepack"] = false },
    };

    private static (int, JsonNode?) NotFound() => (404, new JsonObject { ["message"] = "NotFound" });

    private int AddHistory(string eventType, string? downloadId, int itemId, string sourceTitle, Dictionary<string, string?> data)
    {
        var id = _nextId++;
        _history.Add(new HistoryRecord(id, eventType, Epoch.AddSeconds(id), downloadId, itemId, sourceTitle, data));
        return id;
    }

    private int FileIdOfLocked(int itemId) =>
        Kind is ArrKind.Sonarr ? _episodes.GetValueOrDefault(itemId)?.FileId ?? 0 : _movies.GetValueOrDefault(itemId)?.FileId ?? 0;

    private int? SeriesOf(int itemId) => Kind is ArrKind.Sonarr ? _episodes.GetValueOrDefault(itemId)?.SeriesId : null;

    private int EventNumber(string eventType) => (Kind, eventType) switch
    {
        (_, "grabbed") => 1,
        (ArrKind.Sonarr, "seriesFolderImported") => 2,
        (_, "downloadFolderImported") => 3,
        (_, "downloadFailed") => 4,
        (ArrKind.Sonarr, "episodeFileDeleted") => 5,
        (ArrKind.Sonarr, "episodeFileRenamed") => 6,
        (ArrKind.Sonarr, "downloadIgnored") => 7,
        (ArrKind.Radarr, "movieFileDeleted") => 6,
        (ArrKind.Radarr, "movieFolderImported") => 7,
        (ArrKind.Radarr, "movieFileRenamed") => 8,
        (ArrKind.Radarr, "downloadIgnored") => 9,
        _ => 0,
    };

    private static string Stamp(DateTime time) => time.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture);

    private static async Task<string> ReadBodyAsync(HttpRequest request)
    {
        using var reader = new StreamReader(request.Body);
        return await reader.ReadToEndAsync(request.HttpContext.RequestAborted);
    }

    private void Record(string method, string pathAndQuery, int status)
    {
        lock (_gate)
            _calls.Add(new FakeArrCall(method, pathAndQuery, status));
    }

    private void RequireKind(ArrKind kind)
    {
        if (Kind != kind)
            throw new InvalidOperationException($"This fake is a {Kind}; that seed is for a {kind}.");
    }
}
