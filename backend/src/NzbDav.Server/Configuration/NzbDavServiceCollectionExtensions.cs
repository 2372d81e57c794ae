using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using NzbDav.Archives.Release;
using NzbDav.Data;
using NzbDav.Server.Api;
using NzbDav.Server.Health;
using NzbDav.Server.Health.Arr;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Metrics;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Configuration;

/// <summary>Registers the library store, the SABnzbd API services, the ingestion queue and the Usenet client.</summary>
public static class NzbDavServiceCollectionExtensions
{
    /// <summary>Named <see cref="HttpClient"/> that addurl fetches NZBs with.</summary>
    public const string NzbFetchClient = "nzb-fetch";

    /// <summary>The library on <paramref name="store"/> (resolved once at start: it cannot move under a running server).</summary>
    public static IServiceCollection AddNzbDavLibrary(this IServiceCollection services, IConfiguration configuration, LibraryStore store)
    {
        var section = configuration.GetSection(NzbDavOptions.SectionName);
        services.AddOptions<NzbDavOptions>().Bind(section);
        services.AddNzbDavData(store);

        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<ApiKeyProvider>();
        services.AddHostedService<StoreInitializer>();
        // After the store is migrated and before the queue: the node is registered and the jobs a dead
        // node left are queued again before any worker claims one; stopped after the queue, it
        // removes the node last.
        services.AddValidatedOptions<Cluster.ClusterOptions>(configuration.GetSection(Cluster.ClusterOptions.SectionName), static o => o.Validate());
        services.AddSingleton<Cluster.ClusterNode>();
        services.AddSingleton<Cluster.StoreHealth>();
        services.AddSingleton<Cluster.ClusterView>();
        services.AddSingleton<Cluster.ClusterLocks>();
        services.AddSingleton<Cluster.ClusterOutbox>();
        services.AddSingleton<Cluster.HealthWake>();
        services.AddSingleton<JobClaims>();
        services.AddHostedService<Cluster.NodeHeartbeat>();
        services.AddSingleton<Cluster.ClusterNotifications>();
        services.AddHostedService(static provider => provider.GetRequiredService<Cluster.ClusterNotifications>());
        // Before the queue and the web server: on PostgreSQL the node takes its first provider leases.
        services.AddSingleton<Cluster.ProviderLeaseState>();
        services.AddSingleton<Cluster.ConnectionLeases>();
        services.AddHostedService(static provider => provider.GetRequiredService<Cluster.ConnectionLeases>());
        services.AddSingleton<INzbParser, NzbParser>();
        services.AddSingleton<ReleaseNamer>();
        services.AddValidatedOptions<ReleaseBlocklistOptions>(configuration.GetSection("NzbDav:Blocklist"), static o => _ = new ReleaseBlocklist(o));
        services.AddSingleton<JobSubmitter>();
        services.AddSingleton<SabApiHandler>();
        services.AddSingleton<NzbUrlFetcher>();
        services.AddHttpClient(NzbFetchClient)
            .ConfigureHttpClient(static (provider, client) => client.Timeout = provider.GetRequiredService<IOptionsMonitor<NzbDavOptions>>().CurrentValue.AddUrlTimeout);

        services.AddSingleton<QueueSignal>();
        services.AddSingleton<QueuePause>();
        services.AddSingleton<IngestionProgress>();
        services.AddSingleton<JobCancellations>();
        services.AddSingleton<JobCommands>();
        services.AddSingleton<IArchiveIngestor, ArchiveIngestor>();
        services.AddSingleton<JobIngestor>();
        services.AddSingleton<JobCompletion>();
        services.AddHostedService<IngestionQueueService>();
        services.AddNzbDavHealth(configuration);

        services.AddArrIntegration(configuration);
        services.AddNzbDavUsenet(configuration);
        return services;
    }

    /// <summary>
    /// The Usenet client on the <c>Usenet</c> settings, with or without providers (a fresh install
    /// adds them later): validated at start, and every later change applied to the running client.
    /// </summary>
    private static IServiceCollection AddNzbDavUsenet(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddValidatedOptions<UsenetOptions>(configuration.GetSection("Usenet"), static o => o.Validate());
        services.TryAddSingleton<INntpConnectionFactory, NntpConnectionFactory>();
        services.TryAddSingleton(static provider =>
            new GlobalOperationLimiter(provider.GetRequiredService<Cluster.ProviderLeaseState>().Effective(provider.GetRequiredService<IOptionsMonitor<UsenetOptions>>().CurrentValue).LimiterOptions()));
        services.TryAddSingleton<Traffic.ProviderQuotas>();
        services.TryAddSingleton<BandwidthLimiter>();
        services.TryAddSingleton(static provider => new UsenetClient(
            provider.GetRequiredService<Cluster.ProviderLeaseState>().Effective(provider.GetRequiredService<IOptionsMonitor<UsenetOptions>>().CurrentValue),
            provider.GetRequiredService<INntpConnectionFactory>(),
            provider.GetRequiredService<GlobalOperationLimiter>(),
            provider.GetRequiredService<TimeProvider>(),
            provider.GetRequiredService<ILogger<UsenetClient>>(),
            provider.GetService<UsenetMetrics>(),
            provider.GetRequiredService<Traffic.ProviderQuotas>(),
            provider.GetRequiredService<BandwidthLimiter>()));
        services.AddHostedService<UsenetReconfiguration>();

        return services;
    }
}
