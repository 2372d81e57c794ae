using NzbDav.Server.Configuration;
using NzbDav.Server.Monitoring;

namespace NzbDav.Server.Health;

/// <summary>Registers the health checks: import check, scheduled sweeps, holes for playback, repair.</summary>
public static class HealthServiceCollectionExtensions
{
    public static IServiceCollection AddNzbDavHealth(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddValidatedOptions<HealthOptions>(configuration.GetSection(HealthOptions.SectionName), static o => o.Validate());
        services.AddSingleton<FileHealthCounts>();
        services.AddSingleton<IMetricsRefresh>(static sp => sp.GetRequiredService<FileHealthCounts>());
        services.AddSingleton<HealthMetrics>();
        services.AddSingleton<HealthAudit>();
        services.AddSingleton<FileHoles>();
        services.AddSingleton<Par2.SegmentPatchStore>();
        services.AddSingleton<Par2.Par2JobRepairer>();
        services.AddSingleton<Par2.Par2Repairs>();
        services.AddSingleton<Par2.Par2RepairWorker>();
        services.AddSingleton<Par2.Par2ImportVerifier>();
        services.AddSingleton<HealthSweeper>();
        services.AddSingleton<HealthCheckProgress>();
        services.AddSingleton<FileHealthChecker>();
        services.AddSingleton<HealthRepairer>();
        services.AddSingleton<ImportHealthCheck>();
        services.AddSingleton<HealthCheckService>();
        services.AddHostedService(static sp => sp.GetRequiredService<HealthCheckService>());
        services.AddHostedService(static sp => sp.GetRequiredService<Par2.Par2RepairWorker>());
        services.AddHostedService(static sp => sp.GetRequiredService<Par2.Par2ImportVerifier>());
        return services;
    }
}
