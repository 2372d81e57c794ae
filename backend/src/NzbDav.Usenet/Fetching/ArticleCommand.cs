namespace NzbDav.Usenet.Fetching;

/// <summary>What an <see cref="ArticleRequest"/> asks the providers for.</summary>
public enum ArticleCommand
{
    /// <summary>The article's body, yEnc-decoded into targets the request supplies.</summary>
    Body,

    /// <summary>Only whether the article exists (STAT): cheap, for health checks.</summary>
    Stat,
}
