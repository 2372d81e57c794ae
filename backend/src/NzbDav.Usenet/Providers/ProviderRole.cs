namespace NzbDav.Usenet.Providers;

/// <summary>
/// When a provider is asked: in priority order (primary), only after every primary has failed
/// (backup), or only when nothing else can serve an article (block: an account paid per byte).
/// </summary>
public enum ProviderRole
{
    Primary,
    BackupOnly,

    /// <summary>
    /// A block account: asked only for an article every other provider answered 430 for, or, when
    /// <see cref="UsenetOptions.BlockAccountAfterMs"/> is set, for one a reader has waited on that
    /// long. Never for read-ahead that others can serve, never for straggler races.
    /// </summary>
    Block,
}
