using NzbDav.Server.Api;
using NzbDav.Server.Configuration;
using Serilog;

namespace NzbDav.Server.Hosting;

/// <summary>Builds the ASP.NET Core host; tests call <see cref="Build"/> with <c>--urls http://127.0.0.1:0</c>.</summary>
public sealed class NzbDavHost
{
    private NzbDavHost()
    {
    }

    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);
        builder.Logging.ClearProviders();
        builder.Logging.AddSerilog(SerilogSetup.CreateLogger(builder.Configuration), dispose: true);

        builder.Services.AddNzbDavLibrary(builder.Configuration);

        var app = builder.Build();
        app.MapGet("/health", () => Results.Ok(new HealthResponse("ok")));
        app.MapSabApi();
        return app;
    }
}
