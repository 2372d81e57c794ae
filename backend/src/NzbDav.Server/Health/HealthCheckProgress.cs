using System.Collections.Concurrent;
using NzbDav.Usenet.Health;

namespace NzbDav.Server.Health;

/// <summary>
/// The file checks running now and how far each got, for the Health page: a check registers its
/// sweep's progress for as long as it runs. One entry per file; a second check of the same file at
/// the same time shows the newer one.
/// </summary>
public sealed class HealthCheckProgress
{
    private readonly ConcurrentDictionary<Guid, SweepProgress> _running = new();

    /// <summary>Registers a check of <paramref name="itemId"/> asking <paramref name="segments"/> STATs; disposing the result ends it.</summary>
    public Registration Start(Guid itemId, int segments, out SweepProgress progress)
    {
        progress = new SweepProgress(segments);
        _running[itemId] = progress;
        return new Registration(this, itemId, progress);
    }

    /// <summary>The running check of <paramref name="itemId"/>, or null.</summary>
    public SweepProgress? Of(Guid itemId) => _running.TryGetValue(itemId, out var progress) ? progress : null;

    public readonly struct Registration(HealthCheckProgress owner, Guid itemId, SweepProgress progress) : IDisposable
    {
        public void Dispose() => owner._running.TryRemove(new KeyValuePair<Guid, SweepProgress>(itemId, progress));
    }
}
