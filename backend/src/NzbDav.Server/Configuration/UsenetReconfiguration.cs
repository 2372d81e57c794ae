using Microsoft.Extensions.Options;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Configuration;

/// <summary>
/// Carries changes of the <c>Usenet</c> settings (providers, caps, limiter shares) to the running
/// client: streams and jobs keep going while providers are added, changed, disabled or removed.
/// </summary>
internal sealed class UsenetReconfiguration(IOptionsMonitor<UsenetOptions> options, UsenetClient client, Cluster.ProviderLeaseState leases, ILogger<UsenetReconfiguration> logger)
    : IHostedService, IDisposable
{
    private IDisposable? _subscription;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _subscription = options.OnChange(next =>
        {
            Apply(next);
            // A new provider or cap changes what this node may ask of the cluster.
            leases.RequestStep();
        });
        leases.Changed += ApplyCurrent;
        // A change between the client's creation and now must not be lost.
        Apply(options.CurrentValue);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _subscription?.Dispose();
        _subscription = null;
        leases.Changed -= ApplyCurrent;
        return Task.CompletedTask;
    }

    public void Dispose()
    {
        _subscription?.Dispose();
        leases.Changed -= ApplyCurrent;
    }

    private void ApplyCurrent() => Apply(options.CurrentValue);

    private void Apply(UsenetOptions next)
    {
        try
        {
            // On PostgreSQL the pools are capped at this node's leases, not the account's whole cap.
            client.Reconfigure(leases.Effective(next));
        }
        catch (ArgumentException error)
        {
            // Validated options should never get here; say so rather than fail a reload.
            logger.LogError(error, "The Usenet settings could not be applied; the running ones stay");
        }
        catch (ObjectDisposedException)
        {
            // Shutting down.
        }
    }
}
