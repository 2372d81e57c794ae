using System.Text;
using Microsoft.AspNetCore.Http;
using NzbDav.Server.Api;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The SABnzbd API's request reading, as <c>addfile</c> uses it: the query string, then the form
/// (multipart or urlencoded) read by <see cref="SabRequest.ReadAsync"/>, then the uploaded NZB's bytes
/// read the way the handler reads them. Input: the Content-Type header value, a newline, the body.
/// Clean rejection: what the API handler turns into a SAB error answer instead of a 500
/// (<see cref="SabRequestException"/>, the 400/413 for a form it cannot read, and <see cref="BadHttpRequestException"/>, <see cref="InvalidDataException"/>, <see cref="IOException"/>,
/// <see cref="InvalidOperationException"/>); anything else would reach the client as a 500.
/// </summary>
public sealed class SabUploadTarget : FuzzTarget
{
    // The handler refuses an NZB over MaxNzbBytes before reading it; a small limit keeps the harness fast.
    private const long MaxNzbBytes = 1024 * 1024;

    public override string Name => "sab";

    public override bool Run(byte[] input)
    {
        var newline = Array.IndexOf(input, (byte)'\n');
        var contentType = newline < 0 ? "" : Encoding.Latin1.GetString(input, 0, newline).TrimEnd('\r');
        var body = newline < 0 ? input : input[(newline + 1)..];
        var context = new DefaultHttpContext();
        context.Request.Method = "POST";
        context.Request.QueryString = new QueryString("?mode=addfile&apikey=k");
        if (contentType.Length > 0)
        {
            context.Request.ContentType = contentType;
        }
        context.Request.ContentLength = body.Length;
        context.Request.Body = new MemoryStream(body, writable: false);
        var accepted = false;
        Sync.Run(async () =>
        {
            try
            {
                var request = await SabRequest.ReadAsync(context.Request, MaxNzbBytes, CancellationToken.None);
                _ = request.Get("mode");
                _ = request.Get("nzbname");
                _ = request.GetInt("priority", 0);
                _ = request.Ids;
                var file = request.NzbFile;
                if (file is null || file.Length > MaxNzbBytes)
                {
                    return;
                }
                var bytes = new byte[file.Length];
                await using var stream = file.OpenReadStream();
                await stream.ReadExactlyAsync(bytes, CancellationToken.None);
                _ = file.FileName;
                accepted = true;
            }
            catch (Exception e) when (e is SabRequestException or BadHttpRequestException or InvalidDataException or IOException or InvalidOperationException)
            {
            }
        });
        return accepted;
    }
}
