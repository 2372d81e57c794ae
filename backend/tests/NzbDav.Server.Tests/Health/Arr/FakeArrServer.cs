using System.Globalization;
using System.Net;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

/// <summary>One HTTP call the fake answered: path and query relative to its URL (so they compare with <see cref="ArrCall.Path"/>); status 0 when the client gave up first.</summary>
public sealed record FakeArrCall(string Method, string PathAndQuery, int Status);

/// <summary>A command posted to <c>/api/v3/command</c>: its name and the episode or movie IDs it names.</summary>
public sealed record FakeArrCommand(int Id, string Name, IReadOnlyList<int> Ids);

/// <summary>A blocklisted release, as marking its download failed leaves it.</summary>
public sealed record FakeArrBlocklistEntry(int Id, string? DownloadId, string SourceTitle, IReadOnlyList<int> ItemIds);

/// <summary>A <c>DELETE queue/{id}</c>, with the flags it was sent with.</summary>
public sealed record FakeArrQueueRemoval(int QueueId, string DownloadId, bool RemoveFromClient, bool Blocklist);

/// <summary>
/// What a seeding helper made: the episode (or movie) IDs in the order of the file names, their file
/// record IDs (0 where nothing was imported), the grab's history record IDs and the imports'.
/// </summary>
public sealed record FakeArrDownload(string DownloadId, IReadOnlyList<int> ItemIds, IReadOnlyList<int> FileIds, IReadOnlyList<int> GrabIds, IReadOnlyList<int> ImportIds);

/// <summary>
/// A Sonarr or Radarr on a loopback port that answers the v3 API calls the repair makes as the real
/// ones do: the API key (<c>X-Api-Key</c> or <c>?apikey=</c>) or 401, <c>system/status</c>, the
/// paged <c>history</c> (filtered by <c>downloadId</c> and <c>eventType</c>, newest first, in the
/// <c>{page, pageSize, sortKey, sortDirection, totalRecords, records}</c> envelope; events as
/// camelCase names), <c>history/failed/{id}</c> (a <c>downloadFailed</c> record per grabbed item and
/// a blocklist entry), <c>episode/{id}</c> and <c>DELETE episodefile/{id}</c> (Sonarr) or
/// <c>movie/{id}</c> and <c>DELETE moviefile/{id}</c> (Radarr), the paged <c>queue</c> and
/// <c>DELETE queue/{id}?removeFromClient=&amp;blocklist=</c>, and <c>POST command</c> (201 with the
/// queued command). Tests seed its library and history, read every call it answered in order, and
/// make it fail: stop (connection refused), a status on a path, or a delay beyond the client's timeout.
/// </summary>
public sealed class FakeArrServer : IAsyncDisposable
{
    public const string DefaultApiKey = "0123456789abcdef0123456789abcdef";

    private static readonly DateTime Epoch = new(2026, 11, 1, 12, 0, 0, DateTimeKind.Utc);
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    private readonly Lock _gate = new();
    private readonly WebApplication _app;
    private readonly string _urlBase;
    private readonly List<FakeArrCall> _calls = [];
    private readonly List<(string Method, string Prefix, int Status)> _failures = [];
    private readonly List<(string Prefix, TimeSpan Delay)> _delays = [];
    private readonly Dictionary<int, Series> _series = [];
    private readonly Dictionary<int, Episode> _episodes = [];
    private readonly Dictionary<int, MediaFile> _files = [];
    private readonly Dictionary<int, Movie> _movies = [];
    private readonly List<HistoryRecord> _history = [];
    private readonly List<QueueItem> _queue = [];
    private readonly List<FakeArrBlocklistEntry> _blocklist = [];
    private readonly List<FakeArrCommand> _commands = [];
    private readonly List<FakeArrQueueRemoval> _queueRemovals = [];
    private int _nextId = 1;
    private bool _stopped;

    private FakeArrServer(ArrKind kind, string apiKey, string urlBase, WebApplication app)
    {
        Kind = kind;
        ApiKey = apiKey;
        _urlBase = urlBase;
        _app = app;
    }

    public ArrKind Kind { get; }

    public string ApiKey { get; }

    /// <summary>The instance's address with its URL base, as a user enters it.</summary>
    public Uri Url { get; private set; } = null!;

    /// <summary>What <c>system/status</c> calls the application: <c>Sonarr</c>/<c>Radarr</c> unless a test makes it something else.</summary>
    public string AppName { get; set; } = "";

    public string Version { get; set; } = "";

    /// <summary>Starts a fake <paramref name="kind"/> on 127.0.0.1, port chosen by the system, under <paramref name="urlBase"/> (e.g. "/sonarr") when given.</summary>
    public static async Task<FakeArrServer> StartAsync(ArrKind kind, CancellationToken cancellationToken, string apiKey = DefaultApiKey, string urlBase = "")
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [] });
        builder.WebHost.UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var server = new FakeArrServer(kind, apiKey, urlBase.TrimEnd('/'), app)
        {
            AppName = kind.ToString(),
            Version = kind is ArrKind.Sonarr ? "4.0.14.2939" : "5.21.1.9799",
        };
        app.Run(server.HandleAsync);
        await app.StartAsync(cancellationToken);
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();
        server.Url = new Uri(address.TrimEnd('/') + server._urlBase);
        return server;
    }

    /// <summary>The options that point the client at this fake.</summary>
    public ArrInstanceOptions Instance(string name, params string[] categories) => new()
    {
        Name = name,
        Kind = Kind,
        Url = Url.ToString().TrimEnd('/'),
        ApiKey = ApiKey,
        Categories = categories,
        Timeout = TimeSpan.FromSeconds(5),
    };

    // ----------------------------------------------------------------------------------------
    // What tests read.
    // ----------------------------------------------------------------------------------------

    /// <summary>Every call answered (or given up on), in order.</summary>
    public IReadOnlyList<FakeArrCall> Calls
    {
        get
        {
            lock (_gate)
                return [.. _calls];
        }
    }

    /// <summary>The calls that change something (everything but GET).</summary>
    public IReadOnlyList<FakeArrCall> Writes => [.. Calls.Where(static c => c.Method != "GET")];

    public IReadOnlyList<FakeArrBlocklistEntry> Blocklist
    {
        get
        {
            lock (_gate)
                return [.. _blocklist];
        }
    }

    public IReadOnlyList<FakeArrCommand> Commands
    {
        get
        {
            lock (_gate)
                return [.. _commands];
        }
    }

    public IReadOnlyList<FakeArrQueueRemoval> QueueRemovals
    {
        get
        {
            lock (_gate)
                return [.. _queueRemovals];
        }
    }

    /// <summary>Whether the file record still exists.</summary>
    public bool HasFile(int fileId)
    {
        lock (_gate)
            return _files.ContainsKey(fileId);
    }

    /// <summary>The episode's (Sonarr) or movie's (Radarr) file record ID now; 0 when it has none.</summary>
    public int FileIdOf(int itemId)
    {
        lock (_gate)
            return Kind is ArrKind.Sonarr ? _episodes[itemId].FileId : _movies[itemId].FileId;
    }

    /// <summary>The event types recorded for a download, oldest first.</summary>
    public IReadOnlyList<string> EventsOf(string downloadId)
    {
        lock (_gate)
            return [.. _history.Where(h => h.DownloadId == downloadId).Select(static h => h.EventType)];
    }

    public bool IsQueued(string downloadId)
    {
        lock (_gate)
            return _queue.Any(q => q.DownloadId == downloadId);
    }

    // ----------------------------------------------------------------------------------------
    // Failures.
    // ----------------------------------------------------------------------------------------

    /// <summary>Answers <paramref name="status"/> to <paramref name="method"/> calls whose path (relative to <see cref="Url"/>) starts with <paramref name="pathPrefix"/>.</summary>
    public void FailOn(string method, string pathPrefix, int status = 500)
    {
        lock (_gate)
            _failures.Add((method, pathPrefix, status));
    }

    /// <summary>Waits <paramref name="delay"/> before answering any call whose path starts with <paramref name="pathPrefix"/>.</summary>
    public void DelayOn(string pathPrefix, TimeSpan delay)
    {
        lock (_gate)
            _delays.Add((pathPrefix, delay));
    }

    /// <summary>Stops listening: from now on a connection is refused.</summary>
    public async Task StopAsync()
    {
        if (!_stopped)
        {
            _stopped = true;
            await _app.StopAsync(CancellationToken.None);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        await _app.DisposeAsync();
    }

    // ----------------------------------------------------------------------------------------
    // Seeding.
    // ----------------------------------------------------------------------------------------

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

    // ----------------------------------------------------------------------------------------
    // The API.
    // ----------------------------------------------------------------------------------------

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

    private void Fail(List<HistoryRecord> grabbed, string message)
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
    }

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
        if (blocklist)
            Fail([.. _history.Where(h => h.DownloadId == item.DownloadId && h.EventType == "grabbed")], "Manually marked as failed");
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
            json["episodeFile"] = new JsonObject
            {
                ["seriesId"] = episode.SeriesId,
                ["seasonNumber"] = episode.Season,
                ["relativePath"] = file.RelativePath,
                ["path"] = file.Path,
                ["size"] = 1073741824L,
                ["dateAdded"] = Stamp(Epoch),
                ["releaseGroup"] = "GRP",
                ["languages"] = new JsonArray(new JsonObject { ["id"] = 1, ["name"] = "English" }),
                ["quality"] = Quality(),
                ["customFormats"] = new JsonArray(),
                ["customFormatScore"] = 0,
                ["qualityCutoffNotMet"] = false,
                ["id"] = file.Id,
            };
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
            json["movieFile"] = new JsonObject
            {
                ["movieId"] = movie.Id,
                ["relativePath"] = file.RelativePath,
                ["path"] = file.Path,
                ["size"] = 4294967296L,
                ["dateAdded"] = Stamp(Epoch),
                ["releaseGroup"] = "GRP",
                ["edition"] = "",
                ["languages"] = new JsonArray(new JsonObject { ["id"] = 1, ["name"] = "English" }),
                ["quality"] = Quality(),
                ["customFormats"] = new JsonArray(),
                ["customFormatScore"] = 0,
                ["qualityCutoffNotMet"] = false,
                ["id"] = file.Id,
            };
        }

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

    private sealed record Series(int Id, string Title, string Path);

    private sealed class Episode(int id, int seriesId, int season, int number, string title)
    {
        public int Id { get; } = id;

        public int SeriesId { get; } = seriesId;

        public int Season { get; } = season;

        public int Number { get; } = number;

        public string Title { get; } = title;

        public int FileId { get; set; }
    }

    private sealed class Movie(int id, string title, int year, string path)
    {
        public int Id { get; } = id;

        public string Title { get; } = title;

        public int Year { get; } = year;

        public string Path { get; } = path;

        public int FileId { get; set; }
    }

    private sealed record MediaFile(int Id, int OwnerId, string RelativePath, string Path, IReadOnlyList<int> ItemIds);

    private sealed record HistoryRecord(int Id, string EventType, DateTime Date, string? DownloadId, int ItemId, string SourceTitle, Dictionary<string, string?> Data);

    private sealed record QueueItem(int Id, string DownloadId, string Title, int ItemId, int? SeriesId);
}
