namespace NzbDav.Server.Mount;

/// <summary>Where the managed mount is: off, starting, mounted, failed (waiting to restart) or stopping.</summary>
public enum MountPhase
{
    Off,
    Starting,
    Mounted,
    Failed,
    Stopping,
}

/// <summary>
/// One moment of the managed mount, for /health, the metrics and the UI. <paramref name="LastError"/>
/// is the last failure in one sentence (kept after a successful restart, with its time), and
/// <paramref name="CacheBytes"/> the VFS cache's use when rclone last reported it.
/// </summary>
public sealed record MountSnapshot(
    MountPhase Phase,
    string Path,
    DateTimeOffset Since,
    string? LastError,
    DateTimeOffset? LastErrorAt,
    int Restarts,
    string? RcloneVersion,
    bool Links,
    long? CacheBytes);

/// <summary>The managed mount's state, written by <see cref="RcloneMountService"/> and read by anyone (one immutable snapshot swapped at a time).</summary>
public sealed class MountState(TimeProvider time)
{
    private MountSnapshot _current = new(MountPhase.Off, "", time.GetUtcNow(), null, null, 0, null, false, null);

    public MountSnapshot Current => Volatile.Read(ref _current);

    internal void Update(Func<MountSnapshot, MountSnapshot> change)
    {
        while (true)
        {
            var before = Volatile.Read(ref _current);
            if (Interlocked.CompareExchange(ref _current, change(before), before) == before)
                return;
        }
    }

    internal void Enter(MountPhase phase, string path) =>
        Update(s => s.Phase == phase && s.Path == path ? s : s with { Phase = phase, Path = path, Since = time.GetUtcNow() });

    internal void Fail(string path, string error) =>
        Update(s => s with { Phase = MountPhase.Failed, Path = path, Since = time.GetUtcNow(), LastError = error, LastErrorAt = time.GetUtcNow() });
}
