using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using NzbDav.Server.WebDav;
using NzbDav.Tools.Testing.ServeCpu;

namespace NzbDav.Tools.Testing.Crash;

/// <summary>
/// The clients of one server run: the SABnzbd API (as Sonarr calls it), the web UI's settings API
/// (logged in, with its anti-forgery token, as the browser calls it) and WebDAV. A request cut off
/// by the kill throws <see cref="HttpRequestException"/> (or is cancelled), which callers take as
/// "answer unknown".
/// </summary>
internal sealed class CrashClient : IDisposable
{
    public const string Category = "tv";
    private static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(30);

    private readonly HttpClient _http;
    private readonly HttpClient _ui;
    private readonly string _apiKey;
    private string? _csrf;

    public CrashClient(Uri root, ServeCpuCredentials credentials)
    {
        _apiKey = credentials.ApiKey;
        _http = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = root, Timeout = RequestTimeout };
        _http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(
            "Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(credentials.User + ":" + credentials.Password)));
        _ui = new HttpClient(new SocketsHttpHandler { UseProxy = false, CookieContainer = new CookieContainer(), AllowAutoRedirect = false })
        {
            BaseAddress = root,
            Timeout = RequestTimeout,
        };
    }

    /// <summary>GET /health answered 200.</summary>
    public async Task<JsonElement?> HealthAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var response = await _http.GetAsync("/health", cancellationToken);
            return response.IsSuccessStatusCode ? await ReadAsync(response, cancellationToken) : null;
        }
        catch (HttpRequestException)
        {
            return null;
        }
    }

    /// <summary>mode=addfile; the nzo_id, or null when the server answered without one.</summary>
    public async Task<string?> AddFileAsync(byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        using var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(nzb);
        file.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
        form.Add(file, "name", fileName);
        using var response = await _http.PostAsync(ApiUrl("mode=addfile&cat=" + Category), form, cancellationToken);
        var json = await ReadAsync(response, cancellationToken);
        return json.TryGetProperty("nzo_ids", out var ids) && ids.GetArrayLength() == 1 ? ids[0].GetString() : null;
    }

    /// <summary>The nzo_ids of the SABnzbd queue.</summary>
    public async Task<List<string>> QueueAsync(CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(ApiUrl("mode=queue&limit=1000000"), cancellationToken);
        var json = await ReadAsync(response, cancellationToken);
        return [.. json.GetProperty("queue").GetProperty("slots").EnumerateArray().Select(static s => s.GetProperty("nzo_id").GetString()!)];
    }

    /// <summary>The SABnzbd history: nzo_id, name and status of each entry.</summary>
    public async Task<List<(string NzoId, string Name, string Status)>> HistoryAsync(CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(ApiUrl("mode=history&limit=1000000"), cancellationToken);
        var json = await ReadAsync(response, cancellationToken);
        return [.. json.GetProperty("history").GetProperty("slots").EnumerateArray()
            .Select(static s => (s.GetProperty("nzo_id").GetString()!, s.GetProperty("name").GetString()!, s.GetProperty("status").GetString()!))];
    }

    /// <summary>mode=queue&amp;name=delete; whether the server says it deleted the job.</summary>
    public async Task<bool> DeleteFromQueueAsync(string nzoId, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(ApiUrl("mode=queue&name=delete&value=" + Uri.EscapeDataString(nzoId)), cancellationToken);
        var json = await ReadAsync(response, cancellationToken);
        return json.TryGetProperty("nzo_ids", out var ids) && ids.EnumerateArray().Any(i => i.GetString() == nzoId);
    }

    /// <summary>mode=history&amp;name=delete (what Sonarr sends after an import); whether it answered true.</summary>
    public async Task<bool> RemoveFromHistoryAsync(string nzoId, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(ApiUrl("mode=history&name=delete&del_files=1&value=" + Uri.EscapeDataString(nzoId)), cancellationToken);
        var json = await ReadAsync(response, cancellationToken);
        return json.TryGetProperty("status", out var status) && status.ValueKind == JsonValueKind.True;
    }

    /// <summary>WebDAV DELETE of a completed job's folder; whether it answered 204.</summary>
    public async Task<bool> DeleteFolderAsync(string jobName, CancellationToken cancellationToken)
    {
        var path = $"/{DavTree.Content}/{Uri.EscapeDataString(DavTree.CategoryFolder(Category))}/{Uri.EscapeDataString(jobName)}";
        using var request = new HttpRequestMessage(HttpMethod.Delete, path);
        using var response = await _http.SendAsync(request, cancellationToken);
        return response.StatusCode == HttpStatusCode.NoContent;
    }

    /// <summary>Logs in to the web UI and keeps the anti-forgery token it hands out.</summary>
    public async Task LoginAsync(ServeCpuCredentials credentials, CancellationToken cancellationToken)
    {
        using (var session = await _ui.GetAsync("/ui/api/session", cancellationToken))
            _csrf = (await ReadAsync(session, cancellationToken)).GetProperty("csrfToken").GetString();
        using var response = await PostUiAsync("/ui/api/login", new { user = credentials.User, password = credentials.Password }, cancellationToken);
        _csrf = (await ReadAsync(response, cancellationToken)).GetProperty("csrfToken").GetString();
    }

    /// <summary>Saves <paramref name="value"/> to every key of <see cref="CrashChecker.SettingKeys"/> in one request; true when saved, false when refused.</summary>
    public async Task<bool> SaveSettingsAsync(int value, CancellationToken cancellationToken)
    {
        var text = value.ToString(CultureInfo.InvariantCulture);
        using var response = await PostUiAsync("/ui/api/settings", new { values = CrashChecker.SettingKeys.ToDictionary(static k => k, _ => text) }, cancellationToken);
        if (response.IsSuccessStatusCode)
            return true;
        if ((int)response.StatusCode is >= 400 and < 500)
            return false;
        throw new HttpRequestException($"POST /ui/api/settings answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync(cancellationToken)}");
    }

    /// <summary>The values the Settings page shows for <see cref="CrashChecker.SettingKeys"/> (what is in effect).</summary>
    public async Task<List<string?>> SettingsAsync(CancellationToken cancellationToken)
    {
        using var response = await _ui.GetAsync("/ui/api/settings", cancellationToken);
        var json = await ReadAsync(response, cancellationToken);
        var values = json.GetProperty("settings").EnumerateArray()
            .ToDictionary(static s => s.GetProperty("key").GetString()!, static s => s.GetProperty("value").ValueKind == JsonValueKind.String ? s.GetProperty("value").GetString() : null, StringComparer.Ordinal);
        return [.. CrashChecker.SettingKeys.Select(k => values.GetValueOrDefault(k))];
    }

    public void Dispose()
    {
        _http.Dispose();
        _ui.Dispose();
    }

    private async Task<HttpResponseMessage> PostUiAsync(string path, object body, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = JsonContent.Create(body) };
        if (_csrf is not null)
            request.Headers.Add("X-CSRF-Token", _csrf);
        return await _ui.SendAsync(request, cancellationToken);
    }

    private string ApiUrl(string mode) => "/api?" + mode + "&output=json&apikey=" + Uri.EscapeDataString(_apiKey);

    private static async Task<JsonElement> ReadAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (!response.IsSuccessStatusCode)
            throw new HttpRequestException($"{response.RequestMessage?.Method} {response.RequestMessage?.RequestUri?.AbsolutePath} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync(cancellationToken)}");
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        using var document = await JsonDocument.ParseAsync(body, cancellationToken: cancellationToken);
        return document.RootElement.Clone();
    }
}
