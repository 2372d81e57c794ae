using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.Hosting;

/// <summary>Puts <see cref="HttpLimitsOptions"/> into Kestrel and sets the per-request body limits of NZB uploads.</summary>
public static class HttpLimits
{
    /// <summary>Room for a multipart upload's boundaries, part headers and form fields around the NZB itself.</summary>
    public const long FormOverheadBytes = 1024 * 1024;

    /// <summary>
    /// Binds <c>Server:Limits</c> (validated at start: an invalid value stops the start and names
    /// the setting) and applies it to Kestrel. Registered after the host's own binding of the
    /// <c>Kestrel</c> section, so these values win over <c>Kestrel:Limits</c>.
    /// </summary>
    public static IServiceCollection AddNzbDavHttpLimits(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddValidatedOptions<HttpLimitsOptions>(configuration.GetSection(HttpLimitsOptions.SectionName), static o => o.Validate());
        // Kestrel reads its limits once, when it starts: IOptions (not IOptionsMonitor) says so.
        services.AddOptions<KestrelServerOptions>().Configure<IOptions<HttpLimitsOptions>>(static (kestrel, limits) => Apply(limits.Value, kestrel.Limits));
        services.AddHostedService<OpenFileLimitCheck>();
        return services;
    }

    /// <summary>
    /// Lets this request's body be up to <paramref name="limit"/> bytes (Kestrel answers 413 beyond it).
    /// Returns false when the body is already being read and the limit can no longer change.
    /// </summary>
    public static bool AllowRequestBody(HttpContext context, long limit)
    {
        ArgumentNullException.ThrowIfNull(context);
        var feature = context.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (feature is null or { IsReadOnly: true })
            return false;
        feature.MaxRequestBodySize = limit;
        return true;
    }

    /// <summary>The body limit of a multipart NZB upload: the NZB plus its form around it.</summary>
    public static long UploadLimit(NzbDavOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.MaxNzbBytes + FormOverheadBytes;
    }

    private static void Apply(HttpLimitsOptions options, KestrelServerLimits limits)
    {
        limits.MaxConcurrentConnections = options.MaxConcurrentConnections;
        limits.MaxRequestLineSize = options.MaxRequestLineSize;
        limits.MaxRequestHeadersTotalSize = options.MaxRequestHeadersTotalSize;
        limits.MaxRequestHeaderCount = options.MaxRequestHeaderCount;
        limits.RequestHeadersTimeout = options.RequestHeadersTimeout;
        limits.KeepAliveTimeout = options.KeepAliveTimeout;
        limits.MaxRequestBodySize = options.MaxRequestBodySize;
        limits.MinRequestBodyDataRate = new MinDataRate(options.MinRequestBodyDataRate, options.MinRequestBodyDataRateGracePeriod);
    }
}
