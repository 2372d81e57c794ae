using Microsoft.Extensions.Options;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Configuration;

/// <summary>
/// Carries changes of the <c>Usenet</c> settings (providers, caps, limiter shares) to the running
/// client: streams and jobs keep going while providers are added, changed, disabled or removed.
/// </summary>
internal sealed class UsenetReconfiguration(IOptionsMonitor<UsenetOptions> options, UsenetClient client, ILogger<UsenetReconfiguration> logger)
    : IHostedService, IDisposable
{
    private IDisposable? _subscription;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _subscription = options.OnChange(Apply);
        // A change between the client's creation and now must not be lost.
        Apply(options.CurrentValue);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _subscription?.Dispose();
        _subscription = null;
        return Task.CompletedTask;
    }

    public void Dispose() => _subscription?.Dispose();

    private void Apply(UsenetOptions next)
    {
        try
        {
            client.Reconfigure(next);
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
