using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>A pooled session and when (TimeProvider timestamp) it went idle.</summary>
internal readonly record struct IdleConnection(INntpConnection Connection, long IdleSince);
