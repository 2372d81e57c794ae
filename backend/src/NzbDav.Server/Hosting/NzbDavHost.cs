using NzbDav.Server.Api;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;
using NzbDav.Server.Monitoring;
using NzbDav.Server.WebDav;
using Serilog;

namespace NzbDav.Server.Hosting;

/// <summary>Builds the ASP.NET Core host; tests call <see cref="Build(string[])"/> with <c>--urls http://127.0.0.1:0</c>.</summary>
public sealed class NzbDavHost
{
    private NzbDavHost()
    {
    }

    public static WebApplication Build(string[] args) => Build(args, null);

    /// <summary>As <see cref="Build(string[])"/>, with a last chance to add or replace services (tests register stand-ins here).</summary>
    public static WebApplication Build(string[] args, Action<IServiceCollection>? configureServices)
    {
        var builder = WebApplication.CreateBuilder(args);
        builder.Logging.ClearProviders();
        builder.Logging.AddSerilog(SerilogSetup.CreateLogger(builder.Configuration), dispose: true);

        builder.Services.AddNzbDavLibrary(builder.Configuration);
        builder.Services.AddNzbDavWebDav(builder.Configuration);
        var metrics = builder.Configuration.GetSection(NzbDavOptions.SectionName + ":Metrics").Get<MetricsOptions>() ?? new MetricsOptions();
        if (metrics.Enabled)
            builder.Services.AddNzbDavMetrics();
        // After the credential initializer: the warm-up checks the account it sets.
        builder.Services.AddSingleton<ConnectionPrewarmer>();
        builder.Services.AddHostedService<StartupWarmup>();
        configureServices?.Invoke(builder.Services);

        var app = builder.Build();
        app.UseRouting();
        app.UseWebDavBasicAuth();
        app.MapGet("/health", () => Results.Ok(new HealthResponse("ok")))
            .WithMetadata(new BasicAuthExemption("container health checks carry no credentials"));
        // SABnzbd clients send no Basic auth; /api checks its API key itself.
        app.MapGroup("").WithMetadata(new BasicAuthExemption("SABnzbd API key")).MapSabApi();
        if (metrics.Enabled)
            app.MapNzbDavMetrics();
        app.MapWebDav();
        return app;
    }
}
