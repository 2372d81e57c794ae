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
    /// The password as a PBKDF2 hash (<c>pbkdf2-sha256$…</c>), used when <see cref="Password"/> is
    /// empty. The server keeps the generated password and one set in the web UI this way, in its
    /// own stored layer below every file; it can also be configured to keep a clear password out of files.
    /// </summary>
    public string? PasswordHash { get; set; }

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
