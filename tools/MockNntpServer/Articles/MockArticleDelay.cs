namespace NzbDav.MockNntp.Articles;

/// <summary>An extra answer delay for the next <paramref name="Times"/> requests of one article.</summary>
internal readonly record struct MockArticleDelay(TimeSpan Delay, int Times);
