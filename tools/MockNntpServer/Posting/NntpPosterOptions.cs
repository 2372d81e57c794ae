namespace NzbDav.MockNntp.Posting;

/// <summary>Where and as whom <see cref="NntpPoster"/> posts.</summary>
public sealed record NntpPosterOptions
{
    public required string Host { get; init; }

    public required int Port { get; init; }

    /// <summary>Implicit TLS (port 563 style); the certificate is not checked (test servers are self-signed).</summary>
    public bool UseTls { get; init; }

    public string? User { get; init; }

    public string? Password { get; init; }

    public string Newsgroup { get; init; } = "alt.binaries.nzbdav.test";

    public string From { get; init; } = "NzbDav Tests <tests@nzbdav.test>";

    /// <summary>The right-hand side of generated message-ids.</summary>
    public string MessageIdDomain { get; init; } = "nzbdav.test";

    /// <summary>Encoded characters per yEnc line (the <c>line=</c> value); posters use 128, some up to 997.</summary>
    public int LineLength { get; init; } = 128;

    /// <summary>Each command's answer must arrive within this.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(30);
}
