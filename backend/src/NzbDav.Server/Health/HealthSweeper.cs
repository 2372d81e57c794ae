using NzbDav.Usenet.Health;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Health;

/// <summary>
/// The one STAT sweep of the library's health checks: a health-check-pool fetch group shared by
/// every file checked at the same time, opened at the first check and closed with the host. It
/// holds no connection while nothing is being checked.
/// </summary>
public sealed class HealthSweeper(UsenetClient client, HealthMetrics metrics) : IAsyncDisposable
{
    private readonly Lock _gate = new();
    private StatSweep? _sweep;
    private bool _disposed;

    public async Task<ArticleAvailability[]> CheckAsync(IReadOnlyList<string> messageIds, CancellationToken cancellationToken) =>
        await CheckAsync(messageIds, null, cancellationToken);

    /// <summary>As above, with the answers counted into <paramref name="progress"/> as they come.</summary>
    public async Task<ArticleAvailability[]> CheckAsync(IReadOnlyList<string> messageIds, SweepProgress? progress, CancellationToken cancellationToken)
    {
        var results = await Sweep().CheckAsync(messageIds, progress, cancellationToken);
        metrics.Stats(StatSweepCounts.Of(results));
        return results;
    }

    private StatSweep Sweep()
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _sweep ??= new StatSweep(client, OperationKind.HealthCheck);
        }
    }

    public async ValueTask DisposeAsync()
    {
        StatSweep? sweep;
        lock (_gate)
        {
            _disposed = true;
            sweep = _sweep;
            _sweep = null;
        }
        if (sweep is not null)
            await sweep.DisposeAsync();
    }
}
