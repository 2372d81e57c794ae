using NzbDav.Data;
using NzbDav.Server.Api;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;
using NzbDav.Server.Live;
using NzbDav.Server.Monitoring;
using NzbDav.Server.Mount;
using NzbDav.Server.WebDav;
using NzbDav.Server.WebUi;
using Serilog;
using Serilog.Extensions.Hosting;

namespace NzbDav.Server.Hosting;

/// <summary>Builds the ASP.NET Core host; tests call <see cref="Build(string[])"/> with <c>--urls http://127.0.0.1:0</c>.</summary>
public sealed class NzbDavHost
{
    private NzbDavHost()
    {
    }

    /// <summary>Runs the server until it is stopped; returns the process exit code.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        // A PostgreSQL server that is down (it starts after this node, it restarts) is waited for.
        using (var stopping = new CancellationTokenSource())
        {
            void Stop(System.Runtime.InteropServices.PosixSignalContext context)
            {
                context.Cancel = true;
                stopping.Cancel();
            }

            using var sigterm = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, Stop);
            using var sigint = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGINT, Stop);
            if (!await StoreWait.WaitAsync(args, TimeProvider.System, stopping.Token))
                return 0;
        }

        WebApplication app;
        try
        {
            app = Build(args);
        }
        catch (InvalidOperationException ex)
        {
            // A setting read before the host exists (the database's) is unusable: there is no log yet.
            await Console.Error.WriteLineAsync($"NzbDav stopped: {ex.Message}");
            return 1;
        }

        // Taken now: a host that fails to start disposes its services before the error reaches here.
        var logger = app.Services.GetRequiredService<ILogger<NzbDavHost>>();
        try
        {
            await app.RunAsync();
            return 0;
        }
        catch (Exception ex) when (ex is IOException or InvalidOperationException or Microsoft.Extensions.Options.OptionsValidationException)
        {
            // Most often the port is taken or a setting is invalid: say so plainly.
            logger.LogCritical(ex, "NzbDav stopped: {Reason}", ex.Message);
            // The log may already be closed with the host; the console always gets the reason.
            await Console.Error.WriteLineAsync($"NzbDav stopped: {ex.Message}");
            return 1;
        }
        finally
        {
            await Log.CloseAndFlushAsync();
        }
    }

    public static WebApplication Build(string[] args) => Build(args, null);

    /// <summary>As <see cref="Build(string[])"/>, with a last chance to add or replace services (tests register stand-ins here).</summary>
    public static WebApplication Build(string[] args, Action<IServiceCollection>? configureServices) => Build(args, configureServices, null);

    /// <summary>As <see cref="Build(string[])"/>, with <paramref name="demo"/> as the top configuration layer (demo mode's settings).</summary>
    public static WebApplication Build(string[] args, Action<IServiceCollection>? configureServices, IReadOnlyDictionary<string, string?>? demo)
    {
        // appsettings.json is read once at start: what changes at runtime lives in settings.json, which
        // has its own watcher. One inotify instance per server, not two (the kernel's per-user budget
        // is small and shared with Plex and the like); an explicit argument still turns reload on.
        var builder = WebApplication.CreateBuilder(["--hostBuilder:reloadConfigOnChange=false", .. args]);
        if (demo is not null)
            ((IConfigurationBuilder)builder.Configuration).Add(new DemoConfigurationSource(demo));
        var settingsWatcher = RuntimeSettings.Add(builder.Configuration, out var settingsWatchProblem);
        var dataDirectory = (builder.Configuration.GetSection(NzbDavOptions.SectionName).Get<NzbDavOptions>() ?? new NzbDavOptions()).DataDirectory;
        // Read once: the library cannot move under a running server.
        var store = LibraryStore.Resolve(dataDirectory, builder.Configuration.GetSection(DatabaseOptions.SectionName).Get<DatabaseOptions>());
        // The web UI's saved settings: above the files, below the environment and the command line.
        var storedSettings = StoredSettingsSource.Add(builder.Configuration, store);
        builder.Services.AddSingleton(storedSettings);
        builder.Services.AddSingleton<StoredSettings>();
        // The secrets the server generated or the UI set: below every file, so any configured value wins.
        builder.Services.AddSingleton(StoredSecretsSource.Add(builder.Configuration, store));
        builder.Services.AddSingleton<StoredSecrets>();
        var settings = builder.Configuration.GetSection(NzbDavOptions.SectionName).Get<NzbDavOptions>() ?? new NzbDavOptions();
        var logRing = new LogRing();
        builder.Services.AddSingleton(logRing);
        var logger = SerilogSetup.CreateLogger(builder.Configuration, (settings.Logs.ResolveDirectory(settings.DataDirectory), settings.Logs), logRing, out var logFileProblem);
        builder.Logging.ClearProviders();
        // Serilog as one logger provider among others (tests add their own), disposed with the host
        // so the log file is closed; the diagnostic context is what request logging fills in.
        builder.Logging.AddSerilog(logger, dispose: true);
        var diagnostics = new DiagnosticContext(logger);
        builder.Services.AddSingleton(diagnostics);
        builder.Services.AddSingleton<IDiagnosticContext>(diagnostics);

        builder.Services.AddNzbDavHttpLimits(builder.Configuration);
        builder.Services.AddNzbDavLibrary(builder.Configuration, store);
        builder.Services.AddNzbDavWebDav(builder.Configuration);
        builder.Services.AddNzbDavWebUi();
        builder.Services.AddNzbDavMount(builder.Configuration);
        builder.Services.AddNzbDavUiAuthentication(settings, store);
        var metrics = settings.Metrics;
        // The meters always exist: the dashboard reads them; /metrics only exports them when enabled.
        builder.Services.AddNzbDavMeters();
        if (metrics.Enabled)
            builder.Services.AddNzbDavMetrics();
        builder.Services.AddNzbDavLiveFeed();
        // After the credential initializer: the warm-up checks the account it sets.
        builder.Services.AddSingleton<ConnectionPrewarmer>();
        builder.Services.AddHostedService<StartupWarmup>();
        configureServices?.Invoke(builder.Services);

        var app = builder.Build();
        app.Lifetime.ApplicationStopped.Register(settingsWatcher.Dispose);
        if (logFileProblem is not null)
        {
            app.Services.GetRequiredService<ILogger<NzbDavHost>>().LogWarning("No log file is written: {Problem}", logFileProblem);
        }

        if (settingsWatchProblem is not null)
        {
            app.Services.GetRequiredService<ILogger<NzbDavHost>>().LogWarning(
                "{File} is polled every few seconds instead of watched: {Problem}", RuntimeSettings.FileName, settingsWatchProblem);
        }
        // Warnings from here to the moment the server listens are pinned on the Logs page.
        app.Lifetime.ApplicationStarted.Register(logRing.MarkStarted);
        // Which node answered, for the one behind a load balancer who asks why a stream stalled.
        var nodeName = app.Services.GetRequiredService<Cluster.ClusterNode>().Name;
        app.Use((context, next) =>
        {
            context.Response.Headers["X-NzbDav-Node"] = nodeName;
            return next(context);
        });
        app.UseRequestLogging(logger);
        // Inside the request log, so it records the 4xx a client's bad request becomes.
        app.UseMiddleware<ClientErrorMiddleware>();
        app.UseWebUiRedirect();
        app.UseRouting();
        app.UseAuthentication();
        app.UseAuthorization();
        app.UseRateLimiter();
        app.UseWebDavBasicAuth();
        app.MapGet("/health", static (MountState mount, Microsoft.Extensions.Options.IOptionsMonitor<MountOptions> mountOptions, NzbDav.Streaming.Disk.DiskSegmentCache disk, Cluster.StoreHealth store) =>
                Results.Ok(HealthResponse.Of(mount.Current, mountOptions.CurrentValue.Enabled, disk.Store, store.Current)))
            .WithMetadata(new BasicAuthExemption("container health checks carry no credentials"));
        // Whether this node can serve: a load balancer sends it nothing while it answers 503.
        app.MapGet("/ready", static (Cluster.StoreHealth store, Cluster.ClusterNode node, Cluster.ProviderLeaseState leases, Microsoft.Extensions.Options.IOptionsMonitor<NzbDav.Usenet.Providers.UsenetOptions> usenet) =>
                (store.Current is { Ready: false } storeDown ? storeDown.Reason : leases.NotReadyReason(usenet.CurrentValue)) is { } reason
                    ? Results.Json(new ReadyResponse("not ready", node.Name, reason), statusCode: StatusCodes.Status503ServiceUnavailable)
                    : Results.Ok(new ReadyResponse("ready", node.Name, null)))
            .WithMetadata(new BasicAuthExemption("load balancer health checks carry no credentials"));
        // SABnzbd clients send no Basic auth; /api checks its API key itself.
        app.MapGroup("").WithMetadata(new BasicAuthExemption("SABnzbd API key")).MapSabApi();
        if (metrics.Enabled)
            app.MapNzbDavMetrics();
        app.MapUiApi();
        app.MapWebUi();
        app.MapWebDav();
        return app;
    }
}

/// <summary>Body of <c>GET /ready</c>: "ready" (200) or "not ready" (503) with the reason.</summary>
public sealed record ReadyResponse(string Status, string Node, string? Reason);
