using System.Buffers;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using NzbDav.Tools.Testing.ServeCpu;

namespace NzbDav.Tools.Testing.Scale;

/// <summary>
/// The clients of a scale run in one: a WebDAV client (Basic auth, PROPFIND Depth 1 with an allprop
/// body as rclone sends), Sonarr's SABnzbd calls (API key) and the web UI's (session cookie). Every
/// call reads the whole body, so a time is the time to the last byte, and answers what it found so
/// the run can check the server shows what was generated.
/// </summary>
internal sealed class ScaleClient : IDisposable
{
    private static readonly byte[] ResponseTag = "<d:response>"u8.ToArray();
    private readonly HttpClient _http;
    private readonly ServeCpuCredentials _credentials;

    public ScaleClient(Uri root, ServeCpuCredentials credentials)
    {
        _credentials = credentials;
        _http = new HttpClient(new SocketsHttpHandler { UseProxy = false, CookieContainer = new CookieContainer(), AutomaticDecompression = DecompressionMethods.None })
        {
            BaseAddress = root,
            Timeout = TimeSpan.FromMinutes(10),
        };
        _http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(
            "Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(credentials.User + ":" + credentials.Password)));
    }

    /// <summary>Polls <c>/health</c> until it answers 200.</summary>
    public async Task WaitHealthyAsync(TimeSpan deadline, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        while (true)
        {
            try
            {
                using var response = await _http.GetAsync("/health", cancellationToken);
                if (response.StatusCode == HttpStatusCode.OK)
                    return;
            }
            catch (HttpRequestException) when (Stopwatch.GetElapsedTime(started) < deadline)
            {
                // Not accepting yet.
            }

            if (Stopwatch.GetElapsedTime(started) >= deadline)
                throw new TimeoutException($"/health did not answer 200 within {deadline.TotalSeconds:0} s.");
            await Task.Delay(5, cancellationToken);
        }
    }

    /// <summary>Logs in to the web UI as its browser does (session, then login with the anti-forgery token).</summary>
    public async Task LoginAsync(CancellationToken cancellationToken)
    {
        var session = await _http.GetFromJsonAsync<JsonElement>("/ui/api/session", cancellationToken);
        using var login = new HttpRequestMessage(HttpMethod.Post, "/ui/api/login")
        {
            Content = JsonContent.Create(new { user = _credentials.User, password = _credentials.Password }),
        };
        login.Headers.Add("X-CSRF-Token", session.GetProperty("csrfToken").GetString());
        using var response = await _http.SendAsync(login, cancellationToken);
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"The web UI login answered {(int)response.StatusCode}.");
    }

    /// <summary>PROPFIND Depth 1 of <paramref name="path"/>; answers the number of <c>&lt;d:response&gt;</c> elements (the folder itself and its children).</summary>
    public async Task<long> PropfindAsync(string path, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), path)
        {
            Content = new StringContent("<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:allprop/></d:propfind>", Encoding.UTF8, "application/xml"),
        };
        request.Headers.Add("Depth", "1");
        using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        if ((int)response.StatusCode != 207)
            throw new InvalidOperationException($"PROPFIND {path} answered {(int)response.StatusCode}; expected 207.");
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        return await CountAsync(body, ResponseTag, cancellationToken);
    }

    /// <summary>A SABnzbd API call as Sonarr makes it; answers the parsed JSON.</summary>
    public async Task<JsonDocument> SabAsync(string query, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync("/api?" + query + "&apikey=" + Uri.EscapeDataString(_credentials.ApiKey) + "&output=json", cancellationToken);
        return await JsonAsync(response, cancellationToken);
    }

    /// <summary>A web UI API call (GET) with the session cookie; answers the parsed JSON.</summary>
    public async Task<JsonDocument> UiAsync(string pathAndQuery, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(pathAndQuery, cancellationToken);
        return await JsonAsync(response, cancellationToken);
    }

    public void Dispose() => _http.Dispose();

    private static async Task<JsonDocument> JsonAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"{response.RequestMessage?.RequestUri?.PathAndQuery} answered {(int)response.StatusCode}.");
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        var document = await JsonDocument.ParseAsync(body, cancellationToken: cancellationToken);
        if (document.RootElement.ValueKind == JsonValueKind.Object && document.RootElement.TryGetProperty("status", out var status) && status.ValueKind == JsonValueKind.False)
        {
            var error = document.RootElement.TryGetProperty("error", out var e) ? e.GetString() : "unknown error";
            document.Dispose();
            throw new InvalidOperationException($"{response.RequestMessage?.RequestUri?.AbsolutePath} answered an error: {error}");
        }

        return document;
    }

    /// <summary>Occurrences of <paramref name="tag"/> in the stream, matched across buffer boundaries.</summary>
    private static async Task<long> CountAsync(Stream body, byte[] tag, CancellationToken cancellationToken)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(64 * 1024 + tag.Length);
        try
        {
            long count = 0;
            var carried = 0;
            int read;
            while ((read = await body.ReadAsync(buffer.AsMemory(carried, 64 * 1024), cancellationToken)) > 0)
            {
                var span = buffer.AsSpan(0, carried + read);
                var at = 0;
                int found;
                while ((found = span[at..].IndexOf(tag)) >= 0)
                {
                    count++;
                    at += found + tag.Length;
                }

                // The last tag-length-minus-one bytes may start a tag that the next read completes.
                carried = Math.Min(tag.Length - 1, span.Length - at);
                span[^carried..].CopyTo(buffer);
            }

            return count;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
