using System.Globalization;
using Microsoft.Extensions.Options;

namespace NzbDav.Server.Hosting;

/// <summary>
/// Warns at start when the process may open fewer files than <c>Server:Limits:MaxConcurrentConnections</c>
/// needs: every connection is a file descriptor, and so are the provider sessions, the database and the
/// log. .NET raises the soft limit to the hard one by itself, so the hard limit is what counts.
/// </summary>
internal sealed class OpenFileLimitCheck(IOptions<HttpLimitsOptions> limits, ILogger<OpenFileLimitCheck> logger) : IHostedService
{
    /// <summary>Descriptors beyond the HTTP connections: provider sessions, SQLite, logs, the runtime's own.</summary>
    public const long Headroom = 1024;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var needed = limits.Value.MaxConcurrentConnections + Headroom;
        if (Read("/proc/self/limits") is { } allowed && allowed < needed)
        {
            logger.LogWarning(
                "This process may open {Allowed} files but Server:Limits:MaxConcurrentConnections allows {Connections} connections (+{Headroom} for providers, database and logs): "
                + "raise the limit (docker run --ulimit nofile=65536:65536, compose ulimits: nofile, systemd LimitNOFILE=65536) or lower the setting",
                allowed, limits.Value.MaxConcurrentConnections, Headroom);
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>The soft "Max open files" limit from a <c>/proc/&lt;pid&gt;/limits</c> file; null where there is none (not Linux) or it is unlimited.</summary>
    internal static long? Read(string path)
    {
        try
        {
            foreach (var line in File.ReadLines(path))
            {
                if (!line.StartsWith("Max open files", StringComparison.Ordinal))
                    continue;
                var fields = line["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                return fields.Length > 0 && long.TryParse(fields[0], NumberStyles.None, CultureInfo.InvariantCulture, out var soft) ? soft : null;
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Not Linux, or /proc is not mounted: nothing to check.
        }

        return null;
    }
}
