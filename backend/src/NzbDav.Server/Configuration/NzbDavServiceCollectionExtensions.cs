using Microsoft.Extensions.DependencyInjection.Extensions;
using NzbDav.Archives.Release;
using NzbDav.Data;
using NzbDav.Server.Api;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.Configuration;

/// <summary>Registers the library store, the SABnzbd API services, the ingestion queue and the Usenet client.</summary>
public static class NzbDavServiceCollectionExtensions
{
    /// <summary>Named <see cref="HttpClient"/> that addurl fetches NZBs with.</summary>
    public const string NzbFetchClient = "nzb-fetch";

    public static IServiceCollection AddNzbDavLibrary(this IServiceCollection services, IConfiguration configuration)
    {
        var section = configuration.GetSection(NzbDavOptions.SectionName);
        services.Configure<NzbDavOptions>(section);
        var options = section.Get<NzbDavOptions>() ?? new NzbDavOptions();
        services.AddNzbDavData(options.DataDirectory);

        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<ApiKeyProvider>();
        services.AddHostedService<StoreInitializer>();
        services.AddSingleton<INzbParser, NzbParser>();
        services.AddSingleton<ReleaseNamer>();
        services.AddSingleton(new ReleaseBlocklist(configuration.GetSection("NzbDav:Blocklist").Get<ReleaseBlocklistOptions>() ?? new ReleaseBlocklistOptions()));
        services.AddSingleton<JobSubmitter>();
        services.AddSingleton<SabApiHandler>();
        services.AddHttpClient(NzbFetchClient, client => client.Timeout = options.AddUrlTimeout);

        services.AddSingleton<QueueSignal>();
        services.AddSingleton<QueuePause>();
        services.AddSingleton<IngestionProgress>();
        services.AddSingleton<JobCancellations>();
        services.AddSingleton<IArchiveIngestor, ArchiveIngestor>();
        services.AddSingleton<JobIngestor>();
        services.AddSingleton<JobCompletion>();
        services.AddHostedService<IngestionQueueService>();

        // Registered with or without providers: a fresh install adds them later, at runtime.
        var providers = configuration.GetSection("Usenet:Providers").Get<UsenetProviderOptions[]>() ?? [];
        services.AddUsenetClient(new UsenetOptions { Providers = providers });

        return services;
    }
}
