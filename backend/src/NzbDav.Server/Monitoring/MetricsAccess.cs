using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Monitoring;

/// <summary>
/// Who may scrape <c>/metrics</c> besides a client with the WebDAV credentials: one that sends the
/// SABnzbd API key (<c>?apikey=</c>, an <c>X-Api-Key</c> header, or <c>Authorization: Bearer</c>,
/// which Prometheus's <c>authorization</c> block sends), or anyone when
/// <see cref="MetricsOptions.AllowAnonymous"/> is on.
/// </summary>
public sealed class MetricsAccess(ApiKeyProvider apiKeys, IOptionsMonitor<NzbDavOptions> options)
{
    public bool Admits(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (options.CurrentValue.Metrics.AllowAnonymous)
            return true;
        var request = context.Request;
        string? key = request.Query["apikey"];
        if (string.IsNullOrEmpty(key))
            key = request.Headers["X-Api-Key"];
        if (string.IsNullOrEmpty(key))
        {
            var authorization = request.Headers.Authorization.ToString();
            if (authorization.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase))
                key = authorization[7..].Trim();
        }

        return apiKeys.Matches(key);
    }
}
