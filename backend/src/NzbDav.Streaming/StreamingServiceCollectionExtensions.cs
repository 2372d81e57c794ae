using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace NzbDav.Streaming;

/// <summary>Registers the streaming engine.</summary>
public static class StreamingServiceCollectionExtensions
{
    /// <summary>
    /// Registers <paramref name="options"/> (default <see cref="StreamingOptions"/> when null) and a
    /// singleton <see cref="NzbFileStreamFactory"/>. Needs the Usenet client (<c>AddUsenetClient</c>)
    /// and logging registered by the host. Options registered before win.
    /// </summary>
    public static IServiceCollection AddNzbFileStreams(this IServiceCollection services, StreamingOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        var chosen = options ?? new StreamingOptions();
        chosen.Validate();
        services.TryAddSingleton(chosen);
        services.TryAddSingleton<NzbFileStreamFactory>();
        return services;
    }
}
