using NzbDav.Server.Configuration;

namespace NzbDav.Server.Api;

public sealed partial class SabApiHandler
{
    private async Task<IResult> AddFileAsync(SabRequest request, CancellationToken cancellationToken)
    {
        var file = request.NzbFile;
        if (file is null)
            return SabJson.Error("expects one parameter");
        if (file.Length > options.CurrentValue.MaxNzbBytes)
            return SabJson.Error($"NZB is larger than {options.CurrentValue.MaxNzbBytes} bytes");
        var bytes = new byte[file.Length];
        await using (var stream = file.OpenReadStream())
        {
            await stream.ReadExactlyAsync(bytes, cancellationToken);
        }

        return await SubmitAsync(request, bytes, file.FileName, cancellationToken);
    }

    private async Task<IResult> AddUrlAsync(SabRequest request, CancellationToken cancellationToken)
    {
        if (!Uri.TryCreate(request.Get("name"), UriKind.Absolute, out var url) || url.Scheme is not ("http" or "https"))
            return SabJson.Error("expects one parameter");
        var limit = options.CurrentValue.MaxNzbBytes;
        var http = httpClientFactory.CreateClient(NzbDavServiceCollectionExtensions.NzbFetchClient);
        byte[] bytes;
        string fileName;
        try
        {
            using var response = await http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
            if (!response.IsSuccessStatusCode)
                return SabJson.Error($"URL Fetching failed; HTTP {(int)response.StatusCode}");
            if (response.Content.Headers.ContentLength > limit)
                return SabJson.Error($"NZB is larger than {limit} bytes");
            fileName = response.Content.Headers.ContentDisposition?.FileNameStar
                ?? response.Content.Headers.ContentDisposition?.FileName?.Trim('"')
                ?? Path.GetFileName(url.AbsolutePath);
            bytes = await ReadLimitedAsync(await response.Content.ReadAsStreamAsync(cancellationToken), limit, cancellationToken);
        }
        catch (HttpRequestException ex)
        {
            return SabJson.Error("URL Fetching failed; " + ex.Message);
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return SabJson.Error("URL Fetching failed; timed out");
        }
        catch (InvalidDataException ex)
        {
            return SabJson.Error(ex.Message);
        }

        return await SubmitAsync(request, bytes, string.IsNullOrWhiteSpace(fileName) ? url.Host : fileName, cancellationToken);
    }

    private async Task<IResult> SubmitAsync(SabRequest request, byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        var outcome = await submitter.SubmitAsync(nzb, fileName, request.Get("nzbname"), request.Get("cat"), request.GetInt("priority", 0), cancellationToken);
        return outcome.NzoId is null ? SabJson.Error(outcome.Error!) : SabJson.Ok(new SabAddResult(true, [outcome.NzoId]));
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
                    throw new InvalidDataException($"NZB is larger than {limit} bytes");
                buffer.Write(chunk, 0, read);
            }

            return buffer.ToArray();
        }
    }
}
