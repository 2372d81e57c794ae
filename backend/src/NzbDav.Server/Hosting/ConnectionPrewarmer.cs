using Microsoft.Extensions.Options;
using NzbDav.Server.WebDav;
using NzbDav.Streaming;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Opens <see cref="WebDavOptions.PrewarmConnections"/> streaming sessions in the background after
/// startup and hands them straight back to the pool, so the first playback finds sessions ready
/// instead of waiting for TCP, TLS, the greeting and AUTHINFO. Each is taken with a streaming permit
/// from the limiter and from the provider pool like any stream's, so neither the streaming share nor
/// a provider's MaxConnections can be exceeded; unused, they close after the provider's IdleTimeout
/// like any idle session.
/// </summary>
internal sealed class ConnectionPrewarmer(
    UsenetClient client,
    GlobalOperationLimiter limiter,
    IOptionsMonitor<StreamingOptions> streaming,
    IOptionsMonitor<WebDavOptions> davOptions,
    ILogger<ConnectionPrewarmer> logger) : IDisposable
{
    // Never hold up real work for long: a permit or session not available by then is not needed.
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(30);

    private readonly CancellationTokenSource _stopping = new();
    private Task _running = Task.CompletedTask;

    /// <summary>Connections that will be opened: the setting, capped by one stream's connections and the limiter's streaming share.</summary>
    public int Count
    {
        get
        {
            if (client.ProviderCount == 0)
                return 0;
            var perStream = streaming.CurrentValue.ConnectionsPerStream;
            return Math.Clamp(davOptions.CurrentValue.PrewarmConnections, 0, Math.Min(perStream, limiter.Options.StreamingGuarantee));
        }
    }

    /// <summary>The background work of <see cref="Start"/> (completed when there is none).</summary>
    internal Task Running => _running;

    /// <summary>Starts opening in the background; returns at once.</summary>
    public void Start()
    {
        var count = Count;
        if (count > 0)
            _running = Task.Run(() => OpenAsync(client, count, _stopping.Token));
    }

    /// <summary>Stops an unfinished prewarm and waits for it to hand back what it holds.</summary>
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        await _running.WaitAsync(cancellationToken);
    }

    public void Dispose() => _stopping.Dispose();

    private async Task OpenAsync(UsenetClient client, int count, CancellationToken stopping)
    {
        // On the client's clock, as are the lease waits it bounds.
        using var timeout = new CancellationTokenSource(Deadline, client.Time);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(stopping, timeout.Token);
        var leases = new List<UsenetLease>(count);
        Exception? failure = null;
        try
        {
            // One first: a provider that is down costs one failed attempt, not a burst that trips its breaker.
            leases.Add(await client.AcquireAsync(OperationKind.Streaming, deadline.Token));
            // Then the rest at once, as a stream's workers would: their set-up round trips overlap.
            var pending = Enumerable.Range(1, count - 1).Select(_ => client.AcquireAsync(OperationKind.Streaming, deadline.Token).AsTask()).ToArray();
            foreach (var task in pending)
            {
                try
                {
                    leases.Add(await task);
                }
                catch (Exception ex)
                {
                    failure ??= ex;
                }
            }
        }
        catch (Exception ex)
        {
            // Cancellation at shutdown, a timeout or a provider that is down: the first playback opens its own.
            failure ??= ex;
        }
        finally
        {
            // Held until all are open, so none is lent back to a sibling instead of a new one opening.
            foreach (var lease in leases)
                await lease.DisposeAsync();
        }

        if (failure is null or OperationCanceledException)
            logger.LogDebug("Opened {Opened} of {Count} streaming connections ahead of the first playback", leases.Count, count);
        else
            logger.LogInformation("Opened {Opened} of {Count} streaming connections ahead of the first playback; the rest failed: {Reason}", leases.Count, count, failure.Message);
    }
}
