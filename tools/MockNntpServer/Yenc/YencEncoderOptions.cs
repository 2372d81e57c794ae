namespace NzbDav.MockNntp.Yenc;

/// <summary>How <see cref="YencEncoder"/> lays out an article.</summary>
public sealed record YencEncoderOptions
{
    /// <summary>Encoded characters per line (the <c>line=</c> value); 128 is what posters use.</summary>
    public int LineLength { get; init; } = 128;

    /// <summary>
    /// Make the output NNTP-wire-ready: a line that starts with '.' gets a second '.' (RFC 3977
    /// dot-stuffing). The terminating ".\r\n" is not written.
    /// </summary>
    public bool DotStuff { get; init; }

    /// <summary>Shared default: 128-character lines, no dot-stuffing.</summary>
    public static YencEncoderOptions Default { get; } = new();
}
