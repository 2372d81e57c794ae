using System.Diagnostics;
using System.Net.Http.Headers;
using System.Text;

namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>The body-less WebDAV requests of the scans (PROPFIND, HEAD), each timed from sending to the last byte of the answer.</summary>
internal static class DavRequests
{
    // The properties rclone asks for when it lists a directory.
    private const string PropfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:displayname/><d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/><d:getcontenttype/></d:prop></d:propfind>
        """;

    private static readonly HttpMethod Propfind = new("PROPFIND");

    /// <summary>PROPFIND with the given Depth; anything but 207 Multi-Status is an error. Returns the time in ms.</summary>
    public static async Task<double> PropfindAsync(HttpClient http, string path, string depth, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(Propfind, path);
        request.Headers.Add("Depth", depth);
        request.Content = new StringContent(PropfindBody, Encoding.UTF8, new MediaTypeHeaderValue("application/xml"));
        var started = Stopwatch.GetTimestamp();
        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        if ((int)response.StatusCode != 207)
            throw new InvalidDataException($"PROPFIND {path} (Depth {depth}) answered {(int)response.StatusCode}; expected 207.");
        await response.Content.CopyToAsync(Stream.Null, cancellationToken);
        return Stopwatch.GetElapsedTime(started).TotalMilliseconds;
    }

    /// <summary>HEAD of a file; anything but 200 with the file's size as Content-Length is an error. Returns the time in ms.</summary>
    public static async Task<double> HeadAsync(HttpClient http, string path, long size, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(HttpMethod.Head, path);
        var started = Stopwatch.GetTimestamp();
        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        if ((int)response.StatusCode != 200 || response.Content.Headers.ContentLength != size)
        {
            throw new InvalidDataException(
                $"HEAD {path} answered {(int)response.StatusCode} with Content-Length {response.Content.Headers.ContentLength?.ToString() ?? "none"}; expected 200 and {size}.");
        }

        return Stopwatch.GetElapsedTime(started).TotalMilliseconds;
    }
}
