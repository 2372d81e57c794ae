namespace NzbDav.Server.Hosting;

/// <summary>
/// The last resort between the pipeline and Kestrel: what only a client can cause — Kestrel's
/// verdict on the request's bytes (a body that breaks off, is too large or too slow) and a client
/// that went away — becomes the 4xx it is, or nothing, logged as the client's doing. Every other
/// exception is left alone, so a real fault stays a 500 and is logged as an error. Malformed XML,
/// JSON or forms are not mapped here: the handlers that parse request bodies answer those
/// themselves, and the same exception types also come from the server's own data (a corrupt
/// archive throws <see cref="InvalidDataException"/>), which must stay a fault.
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
