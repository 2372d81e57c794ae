namespace NzbDav.Usenet.Nntp;

/// <summary>The commands <see cref="NntpConnection"/> pipelines.</summary>
internal enum NntpCommandKind
{
    Body,
    Stat,
    Quit,
}
