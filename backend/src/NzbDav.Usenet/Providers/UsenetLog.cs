using Microsoft.Extensions.Logging;

namespace NzbDav.Usenet.Providers;

/// <summary>Source-generated log messages of the pools and the multi-provider client.</summary>
internal static partial class UsenetLog
{
    [LoggerMessage(EventId = 3001, Level = LogLevel.Debug, Message = "Opened connection to {Provider} ({Open}/{Max} open)")]
    public static partial void ConnectionOpened(ILogger logger, string provider, int open, int max);

    [LoggerMessage(EventId = 3002, Level = LogLevel.Warning, Message = "Connecting to {Provider} failed")]
    public static partial void ConnectFailed(ILogger logger, string provider, Exception error);

    [LoggerMessage(EventId = 3003, Level = LogLevel.Debug, Message = "Closed {Count} connection(s) to {Provider} idle longer than {IdleTimeout}")]
    public static partial void IdleClosed(ILogger logger, int count, string provider, TimeSpan idleTimeout);

    [LoggerMessage(EventId = 3004, Level = LogLevel.Debug, Message = "Closing a connection to {Provider} failed")]
    public static partial void CloseFailed(ILogger logger, string provider, Exception error);

    [LoggerMessage(EventId = 3005, Level = LogLevel.Debug, Message = "Provider {Provider} is full ({Code} {Reason}); connecting again in {Delay}")]
    public static partial void ProviderFull(ILogger logger, string provider, int code, string reason, TimeSpan delay);

    [LoggerMessage(EventId = 3006, Level = LogLevel.Warning, Message = "Provider {Provider} refused {Refusals} connection attempt(s) as full (last: {Code}) over {Waited}; giving up")]
    public static partial void ProviderStayedFull(ILogger logger, string provider, int refusals, TimeSpan waited, int code);

    [LoggerMessage(EventId = 3010, Level = LogLevel.Warning, Message = "Provider {Provider} failed {Failures} times in a row; skipping it for {Cooldown}")]
    public static partial void BreakerOpened(ILogger logger, string provider, int failures, TimeSpan cooldown);

    [LoggerMessage(EventId = 3011, Level = LogLevel.Information, Message = "Provider {Provider} answered again; using it normally")]
    public static partial void BreakerClosed(ILogger logger, string provider);

    [LoggerMessage(EventId = 3013, Level = LogLevel.Information, Message = "Usenet providers now in force ({Count}): {Providers}; {Retired} retired, their sessions closing")]
    public static partial void Reconfigured(ILogger logger, int count, string providers, int retired);
}
