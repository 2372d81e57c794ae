using Microsoft.Extensions.Logging;

namespace NzbDav.Usenet.Nntp;

/// <summary>Source-generated log points of the NNTP client (no formatting cost when disabled).</summary>
internal static partial class NntpLog
{
    [LoggerMessage(EventId = 1001, Level = LogLevel.Debug, Message = "Connected to {Provider} at {Host}:{Port} (TLS: {Tls}) in {ElapsedMs} ms")]
    public static partial void Connected(ILogger logger, string provider, string host, int port, bool tls, long elapsedMs);

    [LoggerMessage(EventId = 1002, Level = LogLevel.Warning, Message = "Connection to {Provider} broken: {Reason}")]
    public static partial void Broken(ILogger logger, string provider, string reason, Exception exception);

    [LoggerMessage(EventId = 1003, Level = LogLevel.Debug, Message = "Connection to {Provider} closed: {Reason}")]
    public static partial void Closed(ILogger logger, string provider, string reason);

    [LoggerMessage(EventId = 1004, Level = LogLevel.Debug, Message = "Connection to {Provider} cut before the provider confirmed the close (close timeout {CloseTimeout})")]
    public static partial void CloseUnconfirmed(ILogger logger, string provider, TimeSpan closeTimeout);

    [LoggerMessage(EventId = 1005, Level = LogLevel.Debug, Message = "{Provider} switched to reader mode: {Answer}")]
    public static partial void ReaderMode(ILogger logger, string provider, string answer);
}
