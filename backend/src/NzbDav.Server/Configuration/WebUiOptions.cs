namespace NzbDav.Server.Configuration;

/// <summary>The <c>NzbDav:Ui</c> section: where the built web UI is served from.</summary>
public sealed class WebUiOptions
{
    /// <summary>
    /// The folder holding the built UI (its <c>index.html</c> and <c>assets/</c>); by default the
    /// <c>ui</c> folder the build copies beside the server. Read at startup.
    /// </summary>
    public string? Directory { get; set; }
}
