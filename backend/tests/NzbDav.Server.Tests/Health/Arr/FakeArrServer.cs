using System.Net;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

/// <summary>One HTTP call the fake answered: path and query relative to its URL (so they compare with <see cref="ArrCall.Path"/>); status 0 when the client gave up first.</summary>
public sealed record FakeArrCall(string Method, string PathAndQuery, int Status);

/// <summary>A command posted to <c>/api/v3/command</c>: its name and the episode or movie IDs it names.</summary>
public sealed record FakeArrCommand(int Id, string Name, IReadOnlyList<int> Ids);

/// <summary>
/// The search the Arr starts by itself when a grab is marked failed and its Redownload Failed is on:
/// <see cref="Ids"/> are the items it searched for, <see cref="HadFile"/> those of them that still had
/// a file then (such a search grabs nothing for them: the file meets the profile).
/// </summary>
public sealed record FakeArrAutoSearch(IReadOnlyList<int> Ids, IReadOnlyList<int> HadFile);

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
public sealed partial class FakeArrServer : IAsyncDisposable
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
    private readonly List<FakeArrAutoSearch> _autoSearches = [];
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

    /// <summary>
    /// "Redownload Failed" in its download-client settings (<c>GET config/downloadclient</c>). The real
    /// Sonarr and Radarr have it on by default; off here unless a test turns it on, so each test says which.
    /// </summary>
    public bool AutoRedownloadFailed { get; set; }

    /// <summary>The searches it started by itself after a failed grab (<see cref="AutoRedownloadFailed"/>).</summary>
    public IReadOnlyList<FakeArrAutoSearch> AutoSearches
    {
        get
        {
            lock (_gate)
                return [.. _autoSearches];
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
