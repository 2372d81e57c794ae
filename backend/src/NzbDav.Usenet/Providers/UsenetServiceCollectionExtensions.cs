using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>Registers the Usenet client stack as singletons.</summary>
public static class UsenetServiceCollectionExtensions
{
    /// <summary>
    /// Registers <paramref name="options"/>, <see cref="UsenetClient"/>, a
    /// <see cref="GlobalOperationLimiter"/> with the default shares for the providers' budget, the
    /// real <see cref="NntpConnectionFactory"/> and <see cref="TimeProvider.System"/>. Anything
    /// registered before (a custom <see cref="LimiterOptions"/>, a fake factory, a test clock) wins.
    /// Logging (<c>AddLogging</c>) must be registered by the host.
    /// </summary>
    public static IServiceCollection AddUsenetClient(this IServiceCollection services, UsenetOptions options)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        services.AddSingleton(options);
        services.TryAddSingleton(TimeProvider.System);
        services.TryAddSingleton<INntpConnectionFactory, NntpConnectionFactory>();
        services.TryAddSingleton(options.LimiterOptions());
        services.TryAddSingleton(static provider => new GlobalOperationLimiter(provider.GetRequiredService<LimiterOptions>()));
        services.TryAddSingleton<BandwidthLimiter>();
        services.TryAddSingleton<UsenetClient>();
        return services;
    }
}
