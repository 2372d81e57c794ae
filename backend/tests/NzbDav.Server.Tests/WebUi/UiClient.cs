using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using NzbDav.Testing.Hosting;

namespace NzbDav.Server.Tests.WebUi;

/// <summary>A browser's view of the UI API: its own cookies, and the anti-forgery token from the last session answer sent on every change.</summary>
public sealed class UiClient : IDisposable
{
    private readonly HttpClient _http;

    public UiClient(Uri baseAddress)
    {
        Cookies = new CookieContainer();
        _http = new HttpClient(new HttpClientHandler { CookieContainer = Cookies, AllowAutoRedirect = false }) { BaseAddress = baseAddress };
    }

    public CookieContainer Cookies { get; }

    public string? CsrfToken { get; private set; }

    /// <summary>GET /ui/api/session; keeps the token it hands out.</summary>
    public async Task<JsonElement> SessionAsync(CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync("/ui/api/session", cancellationToken);
        response.EnsureSuccessStatusCode();
        return Remember(await ReadAsync(response, cancellationToken));
    }

    public async Task<JsonElement> LoginAsync(string user, string password, CancellationToken cancellationToken)
    {
        await SessionAsync(cancellationToken);
        using var response = await PostAsync("/ui/api/login", new { user, password }, cancellationToken);
        Assert.True(response.IsSuccessStatusCode, $"login answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync(cancellationToken)}");
        return Remember(await ReadAsync(response, cancellationToken));
    }

    /// <summary>POSTs JSON with the current anti-forgery token (when <paramref name="withToken"/>).</summary>
    public Task<HttpResponseMessage> PostAsync(string path, object body, CancellationToken cancellationToken, bool withToken = true)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = JsonContent.Create(body) };
        if (withToken && CsrfToken is not null)
            request.Headers.Add("X-CSRF-Token", CsrfToken);
        return SendAndDisposeAsync(request, cancellationToken);
    }

    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken) => _http.SendAsync(request, cancellationToken);

    /// <summary>GET <paramref name="path"/>, which must answer 200, and its JSON.</summary>
    public async Task<JsonElement> GetJsonAsync(string path, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(path, cancellationToken);
        var body = await response.Content.ReadAsStringAsync(cancellationToken);
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{path} answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    /// <summary>Polls the queue and the history like the page does until job <paramref name="id"/> is in the history; the queue must hold it meanwhile.</summary>
    public Task<JsonElement> WaitForHistoryAsync(string id, CancellationToken cancellationToken) =>
        JobHistory.WaitForHistoryAsync(GetJsonAsync, JobListApi.WebUi, id, mustStayQueued: true, cancellationToken);

    /// <summary>As <see cref="SendAsync(HttpRequestMessage, CancellationToken)"/>, returning at the headers (for the live feed, which never ends).</summary>
    public Task<HttpResponseMessage> SendHeadersAsync(HttpRequestMessage request, CancellationToken cancellationToken) =>
        _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);

    /// <summary>Keeps the token of a session answer (setup, login and password change hand out a new one).</summary>
    public JsonElement Remember(JsonElement session)
    {
        CsrfToken = session.GetProperty("csrfToken").GetString();
        return session;
    }

    public static async Task<JsonElement> ReadAsync(HttpResponseMessage response, CancellationToken cancellationToken) =>
        JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken)).RootElement.Clone();

    public void Dispose() => _http.Dispose();

    private async Task<HttpResponseMessage> SendAndDisposeAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        using (request)
            return await _http.SendAsync(request, cancellationToken);
    }
}
