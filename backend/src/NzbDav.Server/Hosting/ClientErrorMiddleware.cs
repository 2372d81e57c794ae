using System.Text.Json;
using System.Xml;

namespace NzbDav.Server.Hosting;

/// <summary>
/// The last resort between the pipeline and Kestrel: an exception a client caused (a body that breaks
/// off or is too large, malformed XML or JSON, a client that went away) becomes the 4xx it is, logged
/// as the client's doing. Every other exception is left alone, so a real fault stays a 500 and is
/// logged as an error.
/// </summary>
public sealed class ClientErrorMiddleware(RequestDelegate next, ILogger<ClientErrorMiddleware> logger)
{
    public async Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        try
        {
            await next(context);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            // The client went away; there is nobody left to answer and nothing went wrong here.
            logger.LogDebug("{Method} {Path}: the client closed the connection before the answer", context.Request.Method, context.Request.Path);
        }
        catch (BadHttpRequestException ex)
        {
            // Kestrel's own verdict on the bytes: 400 (bad framing, a body that broke off), 408 (too
            // slow), 413 (too large) and so on.
            await RefuseAsync(context, ex.StatusCode, ex);
        }
        catch (Exception ex) when (ex is InvalidDataException or XmlException or JsonException)
        {
            await RefuseAsync(context, StatusCodes.Status400BadRequest, ex);
        }
    }

    private async Task RefuseAsync(HttpContext context, int status, Exception ex)
    {
        logger.LogInformation("{Method} {Path} refused with {Status}: {Reason}", context.Request.Method, context.Request.Path, status, ex.Message);
        if (context.Response.HasStarted || context.RequestAborted.IsCancellationRequested)
        {
            // The status line is gone already: cutting the connection is the only honest signal left.
            context.Abort();
            return;
        }

        context.Response.Clear();
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/plain; charset=utf-8";
        // Whatever of the body is still unread cannot be trusted to frame a next request.
        context.Response.Headers.Connection = "close";
        try
        {
            await context.Response.WriteAsync(ex.Message + "\n", context.RequestAborted);
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            // Gone while we answered.
        }
    }
}
