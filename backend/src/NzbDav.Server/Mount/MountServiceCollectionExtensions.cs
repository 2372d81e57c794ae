using NzbDav.Server.Configuration;

namespace NzbDav.Server.Mount;

/// <summary>Registers the managed rclone mount and the library-change notices it refreshes folders from.</summary>
public static class MountServiceCollectionExtensions
{
    public static IServiceCollection AddNzbDavMount(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddValidatedOptions<MountOptions>(configuration.GetSection(MountOptions.SectionName), static o => o.Validate());
        services.AddSingleton<LibraryChanges>();
        services.AddSingleton<MountState>();
        services.AddSingleton<MountMetrics>();
        services.AddSingleton<RcloneMountService>();
        services.AddHostedService(static sp => sp.GetRequiredService<RcloneMountService>());
        return services;
    }
}
