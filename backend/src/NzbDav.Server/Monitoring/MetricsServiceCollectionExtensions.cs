using Microsoft.Extensions.DependencyInjection.Extensions;
using NzbDav.Server.Auth;
using NzbDav.Streaming;
using NzbDav.Usenet.Metrics;
using Prometheus;

namespace NzbDav.Server.Monitoring;

/// <summary>Registers the meters and the Prometheus export, and maps <c>GET /metrics</c>.</summary>
public static class MetricsServiceCollectionExtensions
{
    public const string Path = "/metrics";

    /// <summary>
    /// The meters of the Usenet client, the streams and the queue (the classes that take them record
    /// from then on), a registry of our own (never prometheus-net's static default) with the
    /// process's CPU, memory and GC figures, and the bridge that fills it.
    /// </summary>
    /// <summary>The meters of the Usenet client and the streams, which the dashboard reads whether or not /metrics is on.</summary>
    public static IServiceCollection AddNzbDavMeters(this IServiceCollection services)
    {
        services.AddMetrics();
        services.TryAddSingleton<UsenetMetrics>();
        services.TryAddSingleton<StreamingMetrics>();
        return services;
    }

    public static IServiceCollection AddNzbDavMetrics(this IServiceCollection services)
    {
        services.AddNzbDavMeters();
        services.TryAddSingleton(static _ =>
        {
            var registry = Prometheus.Metrics.NewCustomRegistry();
            DotNetStats.Register(registry);
            return registry;
        });
        services.TryAddSingleton<UsenetMetrics>();
        services.TryAddSingleton<StreamingMetrics>();
        services.TryAddSingleton<JobStateCounts>();
        services.AddSingleton<IMetricsRefresh>(static sp => sp.GetRequiredService<JobStateCounts>());
        services.TryAddSingleton<IngestionMetrics>();
        services.TryAddSingleton<PrometheusMeterBridge>();
        services.TryAddSingleton<MetricsAccess>();
        return services;
    }

    /// <summary>
    /// Maps <c>GET /metrics</c>: the WebDAV Basic credentials, or what <see cref="MetricsAccess"/>
    /// admits. Starts the bridge and creates the meters now, before the host starts anything that records.
    /// </summary>
    public static IEndpointConventionBuilder MapNzbDavMetrics(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.Services.GetRequiredService<PrometheusMeterBridge>();
        // Their instruments exist from now on, so every family is in the first scrape even before
        // a client or stream factory is first used (or when no provider is configured yet).
        app.Services.GetRequiredService<UsenetMetrics>();
        app.Services.GetRequiredService<StreamingMetrics>();
        app.Services.GetRequiredService<IngestionMetrics>();
        var access = app.Services.GetRequiredService<MetricsAccess>();
        return app.MapMetrics(Path, app.Services.GetRequiredService<CollectorRegistry>())
            .WithMetadata(new HttpMethodMetadata(["GET"]))
            .WithMetadata(new AlternativeAuthentication("the API key, or anyone when NzbDav:Metrics:AllowAnonymous is on", access.Admits));
    }
}
