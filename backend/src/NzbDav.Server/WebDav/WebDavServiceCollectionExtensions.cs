using NzbDav.Server.Auth;

namespace NzbDav.Server.WebDav;

/// <summary>Registers and maps the WebDAV front end and its Basic auth.</summary>
public static class WebDavServiceCollectionExtensions
{
    /// <summary>
    /// Registers the tree, the request handler and the credentials. Call after
    /// <c>AddNzbDavLibrary</c>: the credential initializer needs the migrated store. Register an
    /// <see cref="IDavFileOpener"/> separately to stream library files.
    /// </summary>
    public static IServiceCollection AddNzbDavWebDav(this IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<WebDavOptions>(configuration.GetSection(WebDavOptions.SectionName));
        services.AddSingleton<DavTree>();
        services.AddSingleton<DavJobRemover>();
        services.AddSingleton<DavRequestHandler>();
        services.AddSingleton<WebDavCredentials>();
        services.AddHostedService<WebDavCredentialInitializer>();
        return services;
    }

    /// <summary>Maps the tree on every path and method that no other endpoint takes.</summary>
    public static IEndpointConventionBuilder MapWebDav(this IEndpointRouteBuilder endpoints) =>
        endpoints.Map("/{**davPath}", context => context.RequestServices.GetRequiredService<DavRequestHandler>().HandleAsync(context));

    /// <summary>Basic auth for everything but endpoints marked with <see cref="BasicAuthExemption"/>; call after routing.</summary>
    public static IApplicationBuilder UseWebDavBasicAuth(this IApplicationBuilder app) => app.UseMiddleware<BasicAuthMiddleware>();
}
