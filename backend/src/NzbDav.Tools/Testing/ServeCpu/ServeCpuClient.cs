using System.Diagnostics;
using System.IO.Hashing;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using NzbDav.Server.WebDav;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// This process's side of a run: the SABnzbd API calls that ingest the NZB, and whole-file GETs
/// that do as little as a client can (a reused buffer, a byte count and a fast hash), so the CPU
/// the machine spends on the client side stays small next to the server's.
/// </summary>
internal sealed class ServeCpuClient : IDisposable
{
    private const int BufferSize = 256 * 1024;
    private static readonly TimeSpan CompletionDeadline = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(100);

    private readonly HttpClient _http;
    private readonly string _apiKey;

    public ServeCpuClient(Uri root, ServeCpuCredentials credentials)
    {
        _apiKey = credentials.ApiKey;
        // One handler for every request, as a real client keeps its connections; no proxy, no decompression.
        _http = new HttpClient(new SocketsHttpHandler { UseProxy = false, AutomaticDecompression = DecompressionMethods.None })
        {
            BaseAddress = root,
            Timeout = Timeout.InfiniteTimeSpan,
        };
        _http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(
            "Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes(credentials.User + ":" + credentials.Password)));
    }

    /// <summary>Submits the NZB through <c>mode=addfile</c>, as Sonarr does, and waits for Completed; returns the job's <c>/content</c> folder.</summary>
    public async Task<string> IngestAsync(byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        string nzoId;
        using (var form = new MultipartFormDataContent())
        {
            var file = new ByteArrayContent(nzb);
            file.Headers.ContentType = new MediaTypeHeaderValue("application/x-nzb");
            form.Add(file, "name", fileName);
            using var response = await _http.PostAsync(ApiUrl("mode=addfile"), form, cancellationToken);
            using var added = await ReadJsonAsync(response, cancellationToken);
            nzoId = added.RootElement.TryGetProperty("nzo_ids", out var ids) && ids.GetArrayLength() == 1
                ? ids[0].GetString()!
                : throw new InvalidOperationException($"addfile of {fileName} was refused: {added.RootElement.GetRawText()}");
        }

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(CompletionDeadline);
        try
        {
            while (true)
            {
                if (await CompletedFolderAsync(nzoId, deadline.Token) is { } folder)
                    return folder;
                await Task.Delay(PollInterval, deadline.Token);
            }
        }
        catch (OperationCanceledException ex) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"Job {nzoId} did not complete within {CompletionDeadline.TotalMinutes} minutes.", ex);
        }
    }

    /// <summary>GETs the whole file into <paramref name="buffer"/> block after block; a wrong status, length or short body is an error.</summary>
    public async Task<WholeFileGet> GetAsync(string path, long size, byte[] buffer, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        using var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        if (response.StatusCode != HttpStatusCode.OK || response.Content.Headers.ContentLength != size)
        {
            throw new InvalidDataException(
                $"GET {path} answered {(int)response.StatusCode} with Content-Length {response.Content.Headers.ContentLength?.ToString() ?? "none"}; expected 200 and {size}.");
        }

        var hash = new XxHash3();
        long received = 0;
        await using (var body = await response.Content.ReadAsStreamAsync(cancellationToken))
        {
            int read;
            while ((read = await body.ReadAsync(buffer, cancellationToken)) > 0)
            {
                hash.Append(buffer.AsSpan(0, read));
                received += read;
            }
        }

        if (received != size)
            throw new EndOfStreamException($"GET {path} ended after {received:N0} of {size:N0} bytes.");
        return new WholeFileGet(received, Stopwatch.GetElapsedTime(started), hash.GetCurrentHashAsUInt64());
    }

    /// <summary>A buffer for <see cref="GetAsync"/>, one per reader, reused for all its GETs.</summary>
    public static byte[] NewBuffer() => new byte[BufferSize];

    public void Dispose() => _http.Dispose();

    private async Task<string?> CompletedFolderAsync(string nzoId, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(ApiUrl("mode=history"), cancellationToken);
        using var json = await ReadJsonAsync(response, cancellationToken);
        foreach (var slot in json.RootElement.GetProperty("history").GetProperty("slots").EnumerateArray())
        {
            if (slot.GetProperty("nzo_id").GetString() != nzoId)
                continue;
            var name = slot.GetProperty("name").GetString()!;
            return slot.GetProperty("status").GetString() switch
            {
                "Completed" => $"/{DavTree.Content}/{Uri.EscapeDataString(DavTree.CategoryFolder(slot.GetProperty("category").GetString()!))}/{Uri.EscapeDataString(name)}/",
                "Failed" => throw new InvalidOperationException($"Job {name} failed: {slot.GetProperty("fail_message").GetString()}"),
                _ => null,
            };
        }

        return null;
    }

    private string ApiUrl(string mode) => "/api?" + mode + "&output=json&apikey=" + Uri.EscapeDataString(_apiKey);

    private static async Task<JsonDocument> ReadJsonAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (!response.IsSuccessStatusCode)
            throw new InvalidOperationException($"{response.RequestMessage?.RequestUri?.AbsolutePath} answered {(int)response.StatusCode}.");
        await using var body = await response.Content.ReadAsStreamAsync(cancellationToken);
        return await JsonDocument.ParseAsync(body, cancellationToken: cancellationToken);
    }
}
