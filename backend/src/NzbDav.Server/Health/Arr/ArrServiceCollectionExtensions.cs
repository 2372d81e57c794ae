using Microsoft.Extensions.DependencyInjection.Extensions;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Health.Arr;

/// <summary>Registers the Sonarr/Radarr settings, their HTTP client and the repair through them.</summary>
public static class ArrServiceCollectionExtensions
{
    /// <summary>Largest answer read from an instance: a history or queue page is a few hundred KiB at most.</summary>
    private const long MaxResponseBytes = 16L * 1024 * 1024;

    public static IServiceCollection AddArrIntegration(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        services.AddValidatedOptions<ArrOptions>(configuration.GetSection(ArrOptions.SectionName), static o => o.Validate());
        // The clock of the calls' timeouts; the host's (or a test's) when one is registered.
        services.TryAddSingleton(TimeProvider.System);
        // Each call has its instance's own timeout (ArrClient); the factory's logging would repeat
        // every request our own log lines already describe.
        services.AddHttpClient(ArrClient.HttpClientName)
            .ConfigureHttpClient(static client =>
            {
                client.Timeout = Timeout.InfiniteTimeSpan;
                client.MaxResponseContentBufferSize = MaxResponseBytes;
            })
            .RemoveAllLoggers();
        services.AddSingleton<ArrClient>();
        services.AddSingleton<ArrRepairService>();
        services.AddSingleton<IArrRepairService>(static provider => provider.GetRequiredService<ArrRepairService>());
        return services;
    }
}
