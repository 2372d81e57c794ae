using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace NzbDav.Server.Health.Arr;

/// <summary>
/// Calls the Sonarr and Radarr v3 API (<c>/api/v3/…</c> under the instance's URL, with its URL
/// base). Every call has the instance's timeout and the caller's cancellation, sends the API key as
/// the <c>X-Api-Key</c> header only, and ends in an <see cref="ArrResult{T}"/>: a network or HTTP
/// fault is an outcome, never an exception (the caller's own cancellation still throws). Writes
/// take <c>dryRun</c>: then nothing is sent and the call is listed as it would have been made.
/// Paths in <see cref="ArrCall.Path"/> are relative to the instance's URL and never hold the key.
/// </summary>
public sealed class ArrClient(IHttpClientFactory httpClientFactory, TimeProvider time)
{
    /// <summary>The named <see cref="HttpClient"/> (see <see cref="ArrServiceCollectionExtensions"/>).</summary>
    public const string HttpClientName = "arr";

    /// <summary>Records per page of history and queue reads; a season pack's grab and imports fit in one.</summary>
    public const int PageSize = 100;

    // A download's history never runs to thousands of records; a queue may, but the search stops at its first match.
    private const int MaxPages = 20;
    private const int MaxErrorText = 200;

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    /// <summary><c>GET system/status</c>: which application answers, and its version.</summary>
    public Task<ArrResult<ArrSystemStatus>> GetStatusAsync(ArrInstanceOptions instance, CancellationToken cancellationToken) =>
        GetAsync<ArrSystemStatus>(instance, "api/v3/system/status", cancellationToken);

    /// <summary>
    /// The connection test: <c>system/status</c> must answer, with this key, as the application
    /// <see cref="ArrInstanceOptions.Kind"/> names (a Radarr configured as a Sonarr would answer
    /// history too, and then be asked for episodes it does not have).
    /// </summary>
    public async Task<ArrTestResult> TestAsync(ArrInstanceOptions instance, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(instance);
        var status = await GetStatusAsync(instance, cancellationToken);
        var at = new Uri(instance.BaseAddress(), "api/v3/system/status").GetLeftPart(UriPartial.Path);
        var error = status.Outcome switch
        {
            ArrCallOutcome.Success => null,
            ArrCallOutcome.Unauthorized => $"{status.Status}: {status.Error}",
            ArrCallOutcome.Unreachable => $"could not reach {at}: {status.Error}",
            ArrCallOutcome.NotFound => $"404 at {at}: no {instance.Kind} API there; check the address and its URL base",
            ArrCallOutcome.BadResponse => $"{at} answered, but {status.Error}",
            _ => $"{at} {status.Describe()}",
        };
        if (error is not null)
        {
            return new ArrTestResult(false, null, null, error);
        }

        var appName = status.Value!.AppName;
        var version = status.Value.Version;
        if (!string.Equals(appName, instance.Kind.ToString(), StringComparison.OrdinalIgnoreCase))
        {
            var which = string.IsNullOrWhiteSpace(appName) ? "does not say which application it is" : $"is a {appName}{(version is null ? "" : " " + version)}";
            return new ArrTestResult(false, appName, version, $"{instance.Url} {which}, not a {instance.Kind}: choose the right kind, or the {instance.Kind}'s address.");
        }

        return new ArrTestResult(true, appName, version, null);
    }

    /// <summary>
    /// Every history record of one download, newest first: <c>GET history?downloadId=…&amp;page=N&amp;pageSize=100</c>
    /// for as many pages as <c>totalRecords</c> says.
    /// </summary>
    public async Task<ArrResult<IReadOnlyList<ArrHistoryRecord>>> GetDownloadHistoryAsync(
        ArrInstanceOptions instance, string downloadId, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(downloadId);
        var calls = new List<ArrCall>();
        var records = new List<ArrHistoryRecord>();
        for (var page = 1; page <= MaxPages; page++)
        {
            var path = $"api/v3/history?downloadId={Uri.EscapeDataString(downloadId)}&page={page}&pageSize={PageSize}";
            var result = await GetAsync<ArrPage<ArrHistoryRecord>>(instance, path, cancellationToken);
            calls.AddRange(result.Calls);
            if (!result.Succeeded)
            {
                return new(result.Outcome, null, calls);
            }

            var got = result.Value!.Records ?? [];
            records.AddRange(got);
            if (got.Count == 0 || records.Count >= result.Value.TotalRecords)
            {
                break;
            }
        }

        return new(ArrCallOutcome.Success, records, calls);
    }

    /// <summary>The queue records of one download (<c>GET queue?page=N&amp;pageSize=100</c>, page by page until one matches); empty when it is not queued.</summary>
    public async Task<ArrResult<IReadOnlyList<ArrQueueRecord>>> FindQueueRecordsAsync(
        ArrInstanceOptions instance, string downloadId, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(downloadId);
        var calls = new List<ArrCall>();
        var seen = 0;
        for (var page = 1; page <= MaxPages; page++)
        {
            var result = await GetAsync<ArrPage<ArrQueueRecord>>(instance, $"api/v3/queue?page={page}&pageSize={PageSize}", cancellationToken);
            calls.AddRange(result.Calls);
            if (!result.Succeeded)
            {
                return new(result.Outcome, null, calls);
            }

            var got = result.Value!.Records ?? [];
            var matches = got.Where(r => string.Equals(r.DownloadId, downloadId, StringComparison.OrdinalIgnoreCase)).ToList();
            seen += got.Count;
            if (matches.Count > 0 || got.Count == 0 || seen >= result.Value.TotalRecords)
            {
                return new(ArrCallOutcome.Success, matches, calls);
            }
        }

        return new(ArrCallOutcome.Success, [], calls);
    }

    /// <summary>Sonarr: <c>GET episode/{id}</c>, with its file record when it has one.</summary>
    public Task<ArrResult<ArrEpisode>> GetEpisodeAsync(ArrInstanceOptions instance, int episodeId, CancellationToken cancellationToken) =>
        GetAsync<ArrEpisode>(instance, FormattableString.Invariant($"api/v3/episode/{episodeId}"), cancellationToken);

    /// <summary>Radarr: <c>GET movie/{id}</c>, with its file record when it has one.</summary>
    public Task<ArrResult<ArrMovie>> GetMovieAsync(ArrInstanceOptions instance, int movieId, CancellationToken cancellationToken) =>
        GetAsync<ArrMovie>(instance, FormattableString.Invariant($"api/v3/movie/{movieId}"), cancellationToken);

    /// <summary><c>GET config/downloadclient</c>: whether marking a download failed makes the Arr search again by itself.</summary>
    public Task<ArrResult<ArrDownloadClientConfig>> GetDownloadClientConfigAsync(ArrInstanceOptions instance, CancellationToken cancellationToken) =>
        GetAsync<ArrDownloadClientConfig>(instance, "api/v3/config/downloadclient", cancellationToken);

    /// <summary>
    /// <c>POST history/failed/{id}</c>: marks the download of that history record failed, which
    /// blocklists its release (every grabbed record of the download, so one ID covers a season pack).
    /// </summary>
    public Task<ArrResult<bool>> MarkFailedAsync(ArrInstanceOptions instance, int historyId, bool dryRun, CancellationToken cancellationToken) =>
        WriteAsync(instance, HttpMethod.Post, FormattableString.Invariant($"api/v3/history/failed/{historyId}"), null, dryRun, cancellationToken);

    /// <summary><c>DELETE episodefile/{id}</c> (Sonarr) or <c>DELETE moviefile/{id}</c> (Radarr): removes the file and its record.</summary>
    public Task<ArrResult<bool>> DeleteFileAsync(ArrInstanceOptions instance, int fileId, bool dryRun, CancellationToken cancellationToken) =>
        WriteAsync(instance, HttpMethod.Delete, FormattableString.Invariant($"api/v3/{(instance.Kind is ArrKind.Sonarr ? "episodefile" : "moviefile")}/{fileId}"), null, dryRun, cancellationToken);

    /// <summary>
    /// <c>DELETE queue/{id}?removeFromClient=false&amp;blocklist=true</c>: stops tracking a download not
    /// yet imported and marks it failed (blocklisted). The job stays here: what to do with it is ours.
    /// </summary>
    public Task<ArrResult<bool>> RemoveFromQueueAsync(ArrInstanceOptions instance, int queueId, bool dryRun, CancellationToken cancellationToken) =>
        WriteAsync(instance, HttpMethod.Delete, FormattableString.Invariant($"api/v3/queue/{queueId}?removeFromClient=false&blocklist=true"), null, dryRun, cancellationToken);

    /// <summary><c>POST command</c> with <c>{"name":"EpisodeSearch","episodeIds":[…]}</c> (Sonarr) or <c>{"name":"MoviesSearch","movieIds":[…]}</c> (Radarr).</summary>
    public Task<ArrResult<bool>> SearchAsync(ArrInstanceOptions instance, IReadOnlyList<int> ids, bool dryRun, CancellationToken cancellationToken)
    {
        object body = instance.Kind is ArrKind.Sonarr
            ? new Dictionary<string, object> { ["name"] = "EpisodeSearch", ["episodeIds"] = ids }
            : new Dictionary<string, object> { ["name"] = "MoviesSearch", ["movieIds"] = ids };
        return WriteAsync(instance, HttpMethod.Post, "api/v3/command", body, dryRun, cancellationToken);
    }

    private async Task<ArrResult<T>> GetAsync<T>(ArrInstanceOptions instance, string path, CancellationToken cancellationToken)
        where T : class
    {
        var (outcome, call, body) = await SendAsync(instance, HttpMethod.Get, path, null, cancellationToken);
        if (outcome is not ArrCallOutcome.Success)
        {
            return new(outcome, null, [call]);
        }

        try
        {
            var value = JsonSerializer.Deserialize<T>(body, Json);
            if (value is not null)
            {
                return new(ArrCallOutcome.Success, value, [call]);
            }
        }
        catch (JsonException)
        {
            // Below: a 2xx that is not this API's JSON is one outcome, whatever broke the parse.
        }

        var error = $"the answer is not the JSON of the {instance.Kind} v3 API (is {instance.Url} the {instance.Kind} address, with its URL base?)";
        return new(ArrCallOutcome.BadResponse, null, [call with { Error = error }]);
    }

    private async Task<ArrResult<bool>> WriteAsync(
        ArrInstanceOptions instance, HttpMethod method, string path, object? body, bool dryRun, CancellationToken cancellationToken)
    {
        if (dryRun)
        {
            return new(ArrCallOutcome.DryRun, false, [new ArrCall(instance.Name, method.Method, "/" + path, null, null, DryRun: true)]);
        }

        var (outcome, call, _) = await SendAsync(instance, method, path, body, cancellationToken);
        return new(outcome, outcome is ArrCallOutcome.Success, [call]);
    }

    private async Task<(ArrCallOutcome Outcome, ArrCall Call, string Body)> SendAsync(
        ArrInstanceOptions instance, HttpMethod method, string path, object? body, CancellationToken cancellationToken)
    {
        var call = new ArrCall(instance.Name, method.Method, "/" + path, null, null, DryRun: false);
        using var timeout = new CancellationTokenSource(instance.Timeout, time);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, timeout.Token);
        try
        {
            using var request = new HttpRequestMessage(method, new Uri(instance.BaseAddress(), path));
            request.Headers.Add("X-Api-Key", instance.ApiKey);
            request.Headers.Accept.ParseAdd("application/json");
            if (body is not null)
            {
                request.Content = JsonContent.Create(body, options: Json);
            }

            var http = httpClientFactory.CreateClient(HttpClientName);
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, deadline.Token);
            var text = await response.Content.ReadAsStringAsync(deadline.Token);
            var status = (int)response.StatusCode;
            call = call with { Status = status };
            if (response.IsSuccessStatusCode)
            {
                return (ArrCallOutcome.Success, call, text);
            }

            var (outcome, error) = response.StatusCode switch
            {
                HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden =>
                    (ArrCallOutcome.Unauthorized, $"the API key was refused; copy it from {instance.Kind} → Settings → General → API Key"),
                HttpStatusCode.NotFound => (ArrCallOutcome.NotFound, "not found" + Detail(text, instance.ApiKey)),
                _ => (ArrCallOutcome.HttpError, (response.ReasonPhrase ?? "error") + Detail(text, instance.ApiKey)),
            };
            return (outcome, call with { Error = error }, text);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return (ArrCallOutcome.Unreachable, call with { Error = $"no answer within {instance.Timeout.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture)} s" }, "");
        }
        catch (HttpRequestException error)
        {
            return (ArrCallOutcome.Unreachable, call with { Error = Redact(Unreachable(error), instance.ApiKey) }, "");
        }
        catch (IOException error)
        {
            return (ArrCallOutcome.Unreachable, call with { Error = Redact("the connection broke: " + error.Message, instance.ApiKey) }, "");
        }
    }

    private static string Unreachable(HttpRequestException error)
    {
        if (error.InnerException is SocketException socket)
        {
            return socket.SocketErrorCode switch
            {
                SocketError.ConnectionRefused => "connection refused",
                SocketError.HostNotFound or SocketError.NoData or SocketError.TryAgain => "host name not found",
                SocketError.TimedOut => "connection timed out",
                SocketError.HostUnreachable or SocketError.NetworkUnreachable => "host unreachable",
                _ => socket.Message,
            };
        }

        return error.HttpRequestError switch
        {
            HttpRequestError.NameResolutionError => "host name not found",
            HttpRequestError.SecureConnectionError => "TLS failed: " + (error.InnerException?.Message ?? error.Message),
            _ => error.Message,
        };
    }

    /// <summary>": " and the body's gist: the <c>message</c> of a JSON error, or the text itself, short and on one line.</summary>
    private static string Detail(string body, string apiKey)
    {
        var text = body;
        try
        {
            using var document = JsonDocument.Parse(body);
            if (document.RootElement.ValueKind is JsonValueKind.Object && document.RootElement.TryGetProperty("message", out var message) && message.ValueKind is JsonValueKind.String)
            {
                text = message.GetString() ?? "";
            }
        }
        catch (JsonException)
        {
            // Not JSON: the text as it is.
        }

        var line = new StringBuilder();
        foreach (var c in text)
        {
            if (line.Length >= MaxErrorText)
            {
                line.Append('…');
                break;
            }

            line.Append(char.IsWhiteSpace(c) ? ' ' : c);
        }

        var gist = Redact(string.Join(' ', line.ToString().Split(' ', StringSplitOptions.RemoveEmptyEntries)), apiKey);
        return gist.Length == 0 ? "" : ": " + gist;
    }

    // An error page could echo the request; the key must never reach a log or the UI.
    private static string Redact(string text, string apiKey) =>
        string.IsNullOrEmpty(apiKey) ? text : text.Replace(apiKey, "***", StringComparison.Ordinal);
}
