using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Api;

/// <summary>
/// Fetches an NZB from a URL for SABnzbd's <c>addurl</c> and the UI's "add by URL": http(s) only,
/// at most <see cref="NzbDavOptions.MaxNzbBytes"/> (refused early from Content-Length, and while
/// reading when the server sent none), within <see cref="NzbDavOptions.AddUrlTimeout"/>.
/// </summary>
public sealed class NzbUrlFetcher(IHttpClientFactory httpClientFactory, IOptionsMonitor<NzbDavOptions> options)
{
    /// <summary>The NZB and a file name for it, or the reason it could not be fetched.</summary>
    public async Task<(byte[]? Nzb, string FileName, string? Error)> FetchAsync(string? address, CancellationToken cancellationToken)
    {
        if (!Uri.TryCreate(address, UriKind.Absolute, out var url) || url.Scheme is not ("http" or "https"))
            return (null, "", "The address is not an http:// or https:// URL.");
        var limit = options.CurrentValue.MaxNzbBytes;
        var http = httpClientFactory.CreateClient(NzbDavServiceCollectionExtensions.NzbFetchClient);
        try
        {
            using var response = await http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            if (!response.IsSuccessStatusCode)
                return (null, "", $"URL Fetching failed; HTTP {(int)response.StatusCode}");
            if (response.Content.Headers.ContentLength > limit)
                return (null, "", $"NZB is larger than {ByteSize.Format(limit)}, the largest NZB allowed (Settings → SABnzbd → Largest NZB)");
            var fileName = response.Content.Headers.ContentDisposition?.FileNameStar
                ?? response.Content.Headers.ContentDisposition?.FileName?.Trim('"')
                ?? Path.GetFileName(url.AbsolutePath);
            var bytes = await ReadLimitedAsync(await response.Content.ReadAsStreamAsync(cancellationToken), limit, cancellationToken);
            return (bytes, string.IsNullOrWhiteSpace(fileName) ? url.Host : fileName, null);
        }
        catch (HttpRequestException ex)
        {
            return (null, "", "URL Fetching failed; " + ex.Message);
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return (null, "", "URL Fetching failed; timed out");
        }
        catch (InvalidDataException ex)
        {
            return (null, "", ex.Message);
        }
    }

    private static async Task<byte[]> ReadLimitedAsync(Stream stream, long limit, CancellationToken cancellationToken)
    {
        await using (stream)
        {
            using var buffer = new MemoryStream();
            var chunk = new byte[81920];
            int read;
            while ((read = await stream.ReadAsync(chunk, cancellationToken)) > 0)
            {
                if (buffer.Length + read > limit)
                    throw new InvalidDataException($"NZB is larger than {ByteSize.Format(limit)}, the largest NZB allowed (Settings → SABnzbd → Largest NZB)");
                buffer.Write(chunk, 0, read);
            }

            return buffer.ToArray();
        }
    }
}
