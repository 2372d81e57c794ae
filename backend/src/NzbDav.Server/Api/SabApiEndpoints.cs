namespace NzbDav.Server.Api;

/// <summary>Maps the SABnzbd API.</summary>
public static class SabApiEndpoints
{
    public static IEndpointRouteBuilder MapSabApi(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        endpoints.MapMethods("/api", ["GET", "POST"], (HttpRequest request, SabApiHandler handler, CancellationToken cancellationToken) =>
                handler.HandleAsync(request, cancellationToken))
            .DisableAntiforgery();
        return endpoints;
    }
}
