namespace NzbDav.Server.Configuration;

/// <summary>The <c>NzbDav:Metrics</c> section: the Prometheus endpoint <c>GET /metrics</c>.</summary>
public sealed class MetricsOptions
{
    /// <summary>Serve <c>/metrics</c> and record the instruments behind it. Read at startup.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>
    /// Let anyone scrape without the API key or the WebDAV credentials (for a Prometheus on a trusted
    /// network that cannot send them). Off by default; changes apply to the next request.
    /// </summary>
    public bool AllowAnonymous { get; set; }
}
