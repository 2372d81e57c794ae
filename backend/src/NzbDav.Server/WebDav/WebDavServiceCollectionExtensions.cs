using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Auth;
using NzbDav.Streaming;
using NzbDav.Streaming.Disk;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.WebDav;

/// <summary>Registers and maps the WebDAV front end and its Basic auth.</summary>
public static class WebDavServiceCollectionExtensions
{
    /// <summary>
    /// Registers the tree, the request handler and the credentials. Call after
    /// <c>AddNzbDavLibrary</c>: the credential initializer needs the migrated store. Library files
    /// stream through <see cref="LayoutDavFileOpener"/>; a later <see cref="IDavFileOpener"/>
    /// registration replaces it (the last one wins). <c>Streaming</c> binds <see cref="StreamingOptions"/>, <c>Cache</c> the disk segment cache.
    /// </summary>
    public static IServiceCollection AddNzbDavWebDav(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<WebDavOptions>().Bind(configuration.GetSection(WebDavOptions.SectionName));
        services.AddSingleton<StrmLinks>();
        services.AddSingleton<DavTree>();
        services.AddSingleton<DavJobRemover>();
        services.AddSingleton<DavRequestHandler>();
        services.AddSingleton<WebDavCredentials>();
        services.AddSingleton<ActiveStreams>();
        services.AddSingleton<Traffic.TrafficLedger>();
        services.AddHostedService(static sp => sp.GetRequiredService<Traffic.TrafficLedger>());
        services.AddHostedService<WebDavCredentialInitializer>();

        services.AddValidatedOptions<StreamingOptions>(configuration.GetSection("Streaming"), static o => o.Validate());
        services.AddValidatedOptions<DiskSegmentStoreOptions>(configuration.GetSection(DiskSegmentStoreOptions.SectionName), static o => o.Validate());
        services.TryAddSingleton<DiskSegmentCache>();
        services.AddHostedService<DiskCacheStarter>();
        services.TryAddSingleton(static sp => new NzbFileStreamFactory(
            sp.GetRequiredService<UsenetClient>(), sp.GetRequiredService<IOptionsMonitor<StreamingOptions>>(), sp.GetRequiredService<ILoggerFactory>(),
            sp.GetService<StreamingMetrics>(), sp.GetService<DiskSegmentCache>()));
        services.AddSingleton<DavLayoutCache>();
        services.AddSingleton<IDavFileOpener, LayoutDavFileOpener>();
        return services;
    }

    /// <summary>Maps the tree on every path and method that no other endpoint takes.</summary>
    public static IEndpointConventionBuilder MapWebDav(this IEndpointRouteBuilder endpoints)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        // One signer for the whole process: the links it made must be admitted by the same one.
        var links = endpoints.ServiceProvider.GetRequiredService<StrmLinks>();
        return endpoints.Map("/{**davPath}", static (HttpContext context, DavRequestHandler handler) => handler.HandleAsync(context))
            .WithMetadata(new AlternativeAuthentication("a signed .strm link to one file", links.Admits, "strm link"));
    }

    /// <summary>Basic auth for everything but endpoints marked with <see cref="BasicAuthExemption"/>; call after routing.</summary>
    public static IApplicationBuilder UseWebDavBasicAuth(this IApplicationBuilder app) => app.UseMiddleware<BasicAuthMiddleware>();
}
