using Microsoft.AspNetCore.Http.Features;

namespace NzbDav.Server.Live;

/// <summary><c>GET /ui/api/live</c>: the dashboard's Server-Sent Events stream.</summary>
public static class LiveEndpoints
{
    public static IServiceCollection AddNzbDavLiveFeed(this IServiceCollection services)
    {
        services.AddSingleton<DashboardSampler>();
        services.AddSingleton<LiveFeed>();
        services.AddHostedService(static provider => provider.GetRequiredService<LiveFeed>());
        return services;
    }

    /// <summary>Maps the stream into the UI API group (which carries its login and anti-forgery rules).</summary>
    public static void MapLiveFeed(this RouteGroupBuilder api) =>
        api.MapGet("/live", StreamAsync).RequireAuthorization().Produces<DashboardSnapshot>(StatusCodes.Status200OK, "text/event-stream");

    private static async Task StreamAsync(HttpContext context, LiveFeed feed)
    {
        context.Response.ContentType = "text/event-stream";
        context.Response.Headers.CacheControl = "no-cache";
        // A reverse proxy (nginx) must pass each message on at once.
        context.Response.Headers["X-Accel-Buffering"] = "no";
        context.Features.Get<IHttpResponseBodyFeature>()?.DisableBuffering();

        using var subscriber = feed.Subscribe();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, subscriber.DroppedToken);
        var body = context.Response.Body;
        try
        {
            // The browser reconnects 2 s after a drop or a restart.
            await body.WriteAsync("retry: 2000\n\n"u8.ToArray(), stop.Token);
            await body.FlushAsync(stop.Token);
            await foreach (var frame in subscriber.Frames.ReadAllAsync(stop.Token))
            {
                await body.WriteAsync(frame, stop.Token);
                await body.FlushAsync(stop.Token);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The browser went away, or this subscriber fell too far behind and was dropped.
        }

        if (subscriber.DroppedToken.IsCancellationRequested)
        {
            // Whatever is still queued in the connection is stale; cutting it is the signal to reconnect.
            context.Abort();
        }
    }
}
