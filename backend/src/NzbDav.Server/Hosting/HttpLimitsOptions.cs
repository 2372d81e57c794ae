namespace NzbDav.Server.Hosting;

/// <summary>
/// The <c>Server:Limits</c> section: what Kestrel accepts from a client, chosen on purpose instead of
/// left at Kestrel's defaults. Kestrel reads these once, when it starts listening; a change applies at
/// the next start. Request bodies that carry an NZB (SABnzbd <c>addfile</c>, WebDAV <c>PUT</c>, the
/// UI's upload) get their own limit from <c>NzbDav:MaxNzbBytes</c> on every request.
/// </summary>
public sealed class HttpLimitsOptions
{
    public const string SectionName = "Server:Limits";

    /// <summary>
    /// Open connections the server holds at once; one more is closed as it arrives. rclone and Plex
    /// keep many connections open, so this is generous: 1,000 idle sockets leave room for them.
    /// </summary>
    public long MaxConcurrentConnections { get; set; } = 4000;

    /// <summary>The request line (method, target, version) in bytes; a longer one gets 414.</summary>
    public int MaxRequestLineSize { get; set; } = 8 * 1024;

    /// <summary>All request headers together in bytes; more gets 431.</summary>
    public int MaxRequestHeadersTotalSize { get; set; } = 32 * 1024;

    /// <summary>Request header fields; more gets 431.</summary>
    public int MaxRequestHeaderCount { get; set; } = 100;

    /// <summary>
    /// From a request's first byte to the end of its headers. Real clients send their headers in one
    /// packet; a connection that trickles them (slowloris) is closed with 408 when this runs out.
    /// </summary>
    public TimeSpan RequestHeadersTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long a connection may wait for its next request, the first one included. Longer than the
    /// 90 s idle timeout of Go's HTTP client (rclone), so the client closes first and never sends a
    /// request on a connection the server is closing.
    /// </summary>
    public TimeSpan KeepAliveTimeout { get; set; } = TimeSpan.FromSeconds(130);

    /// <summary>
    /// The request body of every other request (PROPFIND bodies, the UI's JSON) in bytes; a larger
    /// one gets 413. NZB uploads use <c>NzbDav:MaxNzbBytes</c> instead.
    /// </summary>
    public long MaxRequestBodySize { get; set; } = 1024 * 1024;

    /// <summary>A request body must arrive at least this fast (bytes per second) once <see cref="MinRequestBodyDataRateGracePeriod"/> has passed.</summary>
    public double MinRequestBodyDataRate { get; set; } = 240;

    /// <inheritdoc cref="MinRequestBodyDataRate" />
    public TimeSpan MinRequestBodyDataRateGracePeriod { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Throws <see cref="ArgumentException"/> naming the first invalid setting.</summary>
    public void Validate()
    {
        Require(MaxConcurrentConnections > 0, nameof(MaxConcurrentConnections), "must be at least 1");
        Require(MaxRequestLineSize >= 1024, nameof(MaxRequestLineSize), "must be at least 1024 bytes");
        Require(MaxRequestHeadersTotalSize >= 4096, nameof(MaxRequestHeadersTotalSize), "must be at least 4096 bytes");
        Require(MaxRequestHeaderCount >= 16, nameof(MaxRequestHeaderCount), "must be at least 16");
        Require(RequestHeadersTimeout >= TimeSpan.FromSeconds(1), nameof(RequestHeadersTimeout), "must be at least 1 second");
        Require(KeepAliveTimeout >= TimeSpan.FromSeconds(1), nameof(KeepAliveTimeout), "must be at least 1 second");
        Require(MaxRequestBodySize >= 64 * 1024, nameof(MaxRequestBodySize), "must be at least 65536 bytes");
        Require(MinRequestBodyDataRate > 0, nameof(MinRequestBodyDataRate), "must be above 0 bytes per second");
        // Kestrel's own rule: the grace period must outlast its one-second heartbeat.
        Require(MinRequestBodyDataRateGracePeriod > TimeSpan.FromSeconds(1), nameof(MinRequestBodyDataRateGracePeriod), "must be more than 1 second");
    }

    private static void Require(bool valid, string name, string rule)
    {
        if (!valid)
            throw new ArgumentException($"{SectionName}:{name} {rule}.", name);
    }
}
