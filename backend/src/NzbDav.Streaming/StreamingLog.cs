using Microsoft.Extensions.Logging;

namespace NzbDav.Streaming;

/// <summary>Source-generated log messages of the streaming engine.</summary>
internal static partial class StreamingLog
{
    [LoggerMessage(EventId = 4001, Level = LogLevel.Debug, Message = "Fetching segment {Number} <{MessageId}> on {Provider} failed ({Outcome}); fetching it again elsewhere")]
    public static partial void AttemptFailed(ILogger logger, int number, string messageId, string provider, FetchOutcome outcome, Exception? error);

    [LoggerMessage(EventId = 4002, Level = LogLevel.Warning, Message = "Segment {Number} <{MessageId}> could not be fetched: {Reason}")]
    public static partial void SegmentFailed(ILogger logger, int number, string messageId, string reason);

    [LoggerMessage(EventId = 4003, Level = LogLevel.Debug, Message = "Segment {Number} <{MessageId}> is late ({ElapsedMs} ms); racing it on another connection")]
    public static partial void StragglerRaced(ILogger logger, int number, string messageId, long elapsedMs);

    [LoggerMessage(EventId = 4004, Level = LogLevel.Warning, Message = "Could not lease a streaming connection")]
    public static partial void LeaseFailed(ILogger logger, Exception? error);

    [LoggerMessage(EventId = 4005, Level = LogLevel.Error, Message = "The segment fetch scheduler failed; the stream's pending reads fail with it")]
    public static partial void SchedulerFailed(ILogger logger, Exception error);

    [LoggerMessage(EventId = 4006, Level = LogLevel.Debug, Message = "Returning a streaming connection to {Provider} failed")]
    public static partial void LeaseCloseFailed(ILogger logger, string provider, Exception error);
}
