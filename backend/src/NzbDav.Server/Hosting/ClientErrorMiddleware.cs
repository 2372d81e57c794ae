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
        catch (Exception ex) when (StoreUnreachable(ex) && !context.Response.HasStarted)
        {
            // Not the client's doing, but not a fault of this request either: the library store is
            // away (the node's /ready says so too). A client may try again, here or on another node.
            logger.LogWarning("{Method} {Path}: 503, the library store cannot be reached: {Reason}", context.Request.Method, context.Request.Path, ex.Message);
            context.Response.Clear();
            context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            context.Response.Headers.RetryAfter = "5";
            context.Response.ContentType = "text/plain; charset=utf-8";
            await context.Response.WriteAsync("The library store cannot be reached; try again in a few seconds.\n", context.RequestAborted);
        }
        catch (BadHttpRequestException ex)
        {
            // Kestrel's own verdict on the bytes: 400 (bad framing, a body that broke off), 408 (too
            // slow), 413 (too large) and so on.
            await RefuseAsync(context, ex.StatusCode, ex);
        }
    }

    /// <summary>A connection failure to the database (not a query it refused), however EF wrapped it.</summary>
    private static bool StoreUnreachable(Exception error)
    {
        for (Exception? e = error; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case Npgsql.PostgresException postgres:
                    // The server answered: a query it refused is a fault, not an outage; a server
                    // shutting down or starting up (57P01, 57P03) is.
                    return postgres.IsTransient;
                case Npgsql.NpgsqlException npgsql when npgsql.IsTransient:
                case System.Net.Sockets.SocketException:
                    return true;
            }
        }

        return false;
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
