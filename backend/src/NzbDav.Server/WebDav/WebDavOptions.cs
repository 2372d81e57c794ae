namespace NzbDav.Server.WebDav;

/// <summary>The <c>NzbDav:WebDav</c> configuration section.</summary>
public sealed class WebDavOptions
{
    public const string SectionName = "NzbDav:WebDav";

    /// <summary>Basic-auth user name.</summary>
    public string User { get; set; } = "admin";

    /// <summary>Basic-auth password; when empty one is generated on first start, logged once and stored hashed.</summary>
    public string? Password { get; set; }

    /// <summary>
    /// Base URL written into <c>.strm</c> files (for example <c>http://nzbdav:3000</c>); when empty the
    /// request's own scheme and host are used.
    /// </summary>
    public string? PublicUrl { get; set; }

    /// <summary>
    /// Streaming connections opened in the background at startup, so the first playback does not
    /// wait for connection set-up. Capped by <c>Streaming:ConnectionsPerStream</c> and the limiter's
    /// streaming share; unused ones close after the provider's IdleTimeout. 0 turns it off. Default 20.
    /// </summary>
    public int PrewarmConnections { get; set; } = 20;
}
